// The panel's tRPC endpoint (/api/trpc, app/api/trpc/[trpc]/route.ts): the same router as /v1,
// called by the browser's tRPC client with the owner's token from the panel cookie (or by a
// script with an owner's bearer token). Procedures enforce access themselves; a missing or
// invalid cookie simply makes the caller the public actor, an invalid bearer is a 401.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { isSameOriginRequest, panelSessionFromRequest } from "../auth/panel-session";
import { createRequestContext } from "../auth/request-context";
import { AppError } from "../errors/app-error";
import { toAppError } from "../errors/to-app-error";
import { errorFields } from "../log";
import { appRouter } from "../router";
import { createContext } from "./context";

export const PANEL_TRPC_ENDPOINT = "/api/trpc";

export function handlePanelTrpc(req: Request): Promise<Response> {
  const request = createRequestContext(req.headers);
  const { requestId } = request;
  return fetchRequestHandler({
    endpoint: PANEL_TRPC_ENDPOINT,
    req,
    router: appRouter,
    createContext: async ({ resHeaders }) => {
      resHeaders.set("X-Request-Id", requestId);
      // A bearer must authenticate by itself (401 otherwise); only a cookie call, whose
      // authority is ambient, must also come from this site.
      const { db, actor, via } = await panelSessionFromRequest(req).catch((error: unknown) => {
        throw new TRPCError({ code: "UNAUTHORIZED", cause: error });
      });
      if (via === "cookie" && req.method !== "GET" && req.method !== "HEAD" && !isSameOriginRequest(req)) {
        throw new TRPCError({ code: "FORBIDDEN", cause: new AppError("csrf_rejected") });
      }
      return createContext(request, { db, actor });
    },
    // AppErrors reach tRPC as plain errors (status 500); answer with the contract's status
    // when every call of the request failed the same way.
    responseMeta({ errors, paths }) {
      if (errors.length === 0 || errors.length !== (paths?.length ?? 1)) return {};
      const statuses = new Set(errors.map((error) => toAppError(error).status));
      return statuses.size === 1 ? { status: [...statuses][0], headers: { "X-Request-Id": requestId } } : {};
    },
    onError({ error, path }) {
      const appError = toAppError(error);
      if (appError.code !== "internal_error") return;
      request.log.error("panel call failed", { path, ...errorFields(appError.cause ?? appError) });
    },
  });
}
