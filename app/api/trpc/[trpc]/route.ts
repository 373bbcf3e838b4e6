// The panel's tRPC endpoint: the same router as /v1, called by the browser's tRPC client with
// the owner's token from the panel cookie. Procedures enforce access themselves; a missing or
// invalid cookie simply makes the caller the public actor.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { clientIp } from "@/server/auth/client-ip";
import { isSameOriginRequest, newPanelRequestId, panelSessionFromRequest } from "@/server/auth/panel-session";
import { AppError } from "@/server/errors/app-error";
import { errorFields, log } from "@/server/log";
import { appRouter } from "@/server/router";
import { createContext } from "@/server/trpc/context";
import { toAppError } from "@/server/errors/to-app-error";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function handle(req: Request): Promise<Response> {
  const requestId = newPanelRequestId();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async ({ resHeaders }) => {
      resHeaders.set("X-Request-Id", requestId);
      if (req.method !== "GET" && req.method !== "HEAD" && !isSameOriginRequest(req)) {
        throw new TRPCError({ code: "FORBIDDEN", cause: new AppError("csrf_rejected") });
      }
      const { db, actor } = await panelSessionFromRequest(req);
      return createContext({
        db,
        actor,
        requestId,
        ip: clientIp(req.headers),
        userAgent: req.headers.get("user-agent"),
      });
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
      log.error("panel call failed", { request_id: requestId, path, ...errorFields(appError.cause ?? appError) });
    },
  });
}

export { handle as GET, handle as POST };
