// THE /v1 REST layer. Every operation, procedure or plain route, passes through here once:
//   request id → contract version → route → authentication → rate limit → body →
//   idempotency → (scope, limit, approval, write, audit: inside the procedure) → envelope.
// Nothing here knows about a particular operation.
import { randomUUID } from "node:crypto";
import type { AnyRouter } from "@trpc/server";
import { PUBLIC_ACTOR, principalOf, type TActor } from "../auth/actor";
import { authenticateToken, parseBearer } from "../auth/authenticate";
import { getDatabase, type TDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { errorFields, log } from "../log";
import { createContext } from "../trpc/context";
import { toAppError } from "../errors/to-app-error";
import { assertContractMin } from "./contract";
import {
  beginIdempotentRequest,
  completeIdempotentRequest,
  isStorable,
  releaseIdempotentRequest,
  validateIdempotencyKey,
} from "./idempotency";
import { errorOutcome, toResponse, type TOutcome } from "./outcome";
import type { TPlainRoute } from "./plain-route";
import { createProcedureInvoker } from "./procedure-bridge";
import { consumeRateLimit, rateLimitedError, rateLimitHeaders } from "./rate-limit";
import { assertSafeQuery, MAX_JSON_BODY_BYTES, parseJsonObject, readBodyCapped } from "./request-body";
import { isWriteMethod, RouteTable, routesFromPlain, routesFromRouter, type TRoute } from "./route-table";

export type TRestHandlerOptions = {
  router: AnyRouter;
  plainRoutes?: TPlainRoute[];
  getDb?: () => Promise<TDb>;
};

export type TRestHandler = ((req: Request) => Promise<Response>) & { routes: RouteTable };

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "")}`;
}

export function createRestHandler(options: TRestHandlerOptions): TRestHandler {
  const routes = [...routesFromRouter(options.router), ...routesFromPlain(options.plainRoutes ?? [])];
  const table = new RouteTable(routes);
  const invoke = createProcedureInvoker(options.router, routes);
  const getDb = options.getDb ?? (async () => (await getDatabase()).prisma);

  async function handle(req: Request): Promise<Response> {
    const requestId = newRequestId();
    const headers: Record<string, string> = {};
    let idempotencyRecord: { db: TDb; id: string } | undefined;
    try {
      assertContractMin(req.headers.get("x-service-contract-min"));
      const url = new URL(req.url);
      const found = table.match(req.method, url.pathname);
      if (!found) throw new AppError("not_found", `No operation at ${url.pathname}.`);
      if ("allowed" in found) {
        throw new AppError("method_not_allowed", `${req.method} is not supported here; use ${found.allowed.join(", ")}.`, {
          headers: { Allow: found.allowed.join(", ") },
        });
      }
      const { route, params } = found;
      assertSafeQuery(url.searchParams);
      Object.assign(headers, deprecationHeaders(route));

      // Fetched on first use: a public plain route (the OpenAPI document) needs no database.
      let dbPromise: Promise<TDb> | undefined;
      const db = () => (dbPromise ??= getDb());
      const actor = await authenticate(db, req, route);
      if (actor.type === "owner" || actor.type === "agent") {
        const state = await consumeRateLimit(await db(), actor.tokenKey, getEnv().RATE_LIMIT_PER_MINUTE);
        Object.assign(headers, rateLimitHeaders(state));
        if (state.exceeded) throw rateLimitedError(state);
      }

      const rawBody = isWriteMethod(req.method)
        ? await readBodyCapped(req, route.maxBodyBytes ?? MAX_JSON_BODY_BYTES)
        : Buffer.alloc(0);
      const body =
        route.target.kind === "procedure" && isWriteMethod(req.method)
          ? parseJsonObject(rawBody, req.headers.get("content-type"))
          : undefined;

      if (isWriteMethod(req.method) && route.idempotency === "required") {
        const key = validateIdempotencyKey(req.headers.get("idempotency-key"));
        const started = await beginIdempotentRequest(await db(), {
          principal: principalOf(actor),
          key,
          method: req.method,
          path: url.pathname + url.search,
          body: body ?? rawBody.toString("base64"),
        });
        if (started.kind === "replay") {
          return toResponse(started.outcome, requestId, { ...headers, "Idempotent-Replayed": "true" });
        }
        idempotencyRecord = { db: await db(), id: started.recordId };
      }

      const { outcome, code } = await execute({ route, params, url, req, db, actor, requestId, body, rawBody });
      if (idempotencyRecord) {
        if (isStorable(outcome, code)) {
          await completeIdempotentRequest(idempotencyRecord.db, idempotencyRecord.id, outcome, {
            encrypt: route.secretInResponse,
          });
        } else await releaseIdempotentRequest(idempotencyRecord.db, idempotencyRecord.id);
      }
      return toResponse(outcome, requestId, headers);
    } catch (thrown) {
      const error = toAppError(thrown);
      logIfUnexpected(error, requestId, req);
      if (idempotencyRecord) {
        await releaseIdempotentRequest(idempotencyRecord.db, idempotencyRecord.id).catch((e: unknown) =>
          log.error("could not release an idempotency key", { request_id: requestId, ...errorFields(e) }),
        );
      }
      return toResponse(errorOutcome(error), requestId, headers);
    }
  }

  async function execute(call: {
    route: TRoute;
    params: Record<string, string>;
    url: URL;
    req: Request;
    db: () => Promise<TDb>;
    actor: TActor;
    requestId: string;
    body: Record<string, unknown> | undefined;
    rawBody: Buffer;
  }): Promise<{ outcome: TOutcome; code?: string }> {
    const { route } = call;
    if (route.target.kind === "plain") {
      const outcome = await route.target.route.handle({
        req: call.req,
        getDb: call.db,
        actor: call.actor,
        requestId: call.requestId,
        params: call.params,
        query: call.url.searchParams,
        rawBody: call.rawBody,
      });
      return { outcome };
    }
    const ctx = createContext({
      db: await call.db(),
      actor: call.actor,
      requestId: call.requestId,
      ip: clientIp(call.req),
      userAgent: call.req.headers.get("user-agent"),
    });
    const result = await invoke({ req: call.req, url: call.url, body: call.body, ctx });
    if (!result.ok) {
      const error = toAppError(result.error);
      logIfUnexpected(error, call.requestId, call.req);
      return { outcome: errorOutcome(error), code: error.code };
    }
    const status = ctx.response.status ?? route.successStatus;
    return { outcome: { status, headers: ctx.response.headers, kind: "envelope", body: result.body } };
  }

  return Object.assign(handle, { routes: table });
}

async function authenticate(db: () => Promise<TDb>, req: Request, route: TRoute): Promise<TActor> {
  if (route.access.kind === "signature") return PUBLIC_ACTOR; // the handler checks the signature
  const header = req.headers.get("authorization");
  // A public operation needs no bearer, but one that is sent must be valid (logout uses it).
  if (route.access.kind === "public" && header === null) return PUBLIC_ACTOR;
  const token = parseBearer(header);
  return authenticateToken(await db(), token, { ip: clientIp(req) });
}

function deprecationHeaders(route: TRoute): Record<string, string> {
  if (!route.deprecation) return {};
  return {
    Deprecation: "true",
    Sunset: new Date(`${route.deprecation.sunset}T00:00:00Z`).toUTCString(),
    Link: `<${route.deprecation.link}>; rel="deprecation"`,
  };
}

function clientIp(req: Request): string | null {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
}

function logIfUnexpected(error: AppError, requestId: string, req: Request): void {
  if (error.code !== "internal_error") return;
  log.error("request failed", { request_id: requestId, method: req.method, url: req.url, ...errorFields(error.cause ?? error) });
}
