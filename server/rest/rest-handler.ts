// THE /v1 REST layer. Every operation, procedure or plain route, passes through here once:
//   request context → contract version → route (one match) → authentication → rate limit →
//   body → idempotency → access → (resource grant, limit, approval, write, audit: inside the
//   operation) → envelope.
// The order of idempotency and access is pinned-wave2.md §1.3: a denial runs inside the
// keyed transaction but is not stored, so it claims no key and its audit entry stays.
// A write that requires an Idempotency-Key runs from the claim to its stored answer in one
// transaction, which the operation receives as its database (ctx.db, getDb()).
// Nothing here knows about a particular operation.
import type { AnyRouter } from "@trpc/server";
import { checkAccess } from "../access/check-access";
import { assertPlanWritable } from "../plans/plan-service";
import { PUBLIC_ACTOR, principalOf, type TActor } from "../auth/actor";
import { authenticateToken, parseBearer } from "../auth/authenticate";
import { createRequestContext, newRequestId, type TRequestContext } from "../auth/request-context";
import { getDatabase, type TDb, type TDbOrTx } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { boundLog, errorFields, type TLogger } from "../log";
import { createContext } from "../trpc/context";
import { toAppError } from "../errors/to-app-error";
import { assertContractMin } from "./contract";
import { assertDeprecations, deprecationHeaders } from "./deprecation";
import { runIdempotent, validateIdempotencyKey } from "./idempotency";
import { assertOpenApiAgrees } from "./openapi";
import { errorOutcome, toResponse, type TOutcome } from "./outcome";
import type { TPlainRoute } from "./plain-route";
import { assertCorsOrigin, corsHeaders, preflightHeaders } from "./cors";
import { authenticateAtTheDoor } from "./ip-limit";
import { createProcedureCaller, procedureInput } from "./procedure-call";
import { consumeRateLimit, rateLimitedError, rateLimitHeaders } from "./rate-limit";
import { systemClock, type TClock } from "../shared/clock";
import { parseJsonObject } from "../http/json-body";
import { assertSafeQuery, MAX_JSON_BODY_BYTES, readBodyCapped } from "./request-body";
import { isWriteMethod, RouteTable, routesFromPlain, routesFromRouter, type TRoute } from "./route-table";
import { withRequestMetrics } from "./request-metrics";
import { readFromReplicaWhenFresh } from "../fleet/read-routing";
import { noteWriter, withWriteMarks } from "../fleet/write-marks";

export type TRestHandlerOptions = {
  router: AnyRouter;
  plainRoutes?: TPlainRoute[];
  getDb?: () => Promise<TDb>;
  /** The clock requests run at: rate-limit windows and every context's `clock` (tests pass one they set). */
  clock?: TClock;
  /**
   * Test seam: runs once a write's work is committed and before its answer is built, where a
   * dropped connection hurts most. A throw becomes the answer (500), as a lost connection would.
   */
  afterCommit?: (requestId: string) => Promise<void>;
};

export type TRestHandler = ((req: Request) => Promise<Response>) & { routes: RouteTable };

export function createRestHandler(options: TRestHandlerOptions): TRestHandler {
  const routes = [...routesFromRouter(options.router), ...routesFromPlain(options.plainRoutes ?? [])];
  const table = new RouteTable(routes);
  assertOpenApiAgrees(options.router, routes);
  assertDeprecations(routes);
  const callProcedure = createProcedureCaller(options.router);
  const getDb = options.getDb ?? (async () => (await getDatabase()).prisma);
  const clock = options.clock ?? systemClock;

  async function handle(req: Request): Promise<Response> {
    const requestId = newRequestId();
    let logger: TLogger | undefined; // the request's, once its context exists
    const headers: Record<string, string> = {};
    let keyed = false; // whether the Idempotency-Key applies (shapes internal_error's retry advice)
    try {
      // Request id, client IP, user agent, clock and logger: made here once, passed down.
      const request = createRequestContext(req.headers, { clock, requestId });
      logger = request.log;
      const now = clock.now();
      assertContractMin(req.headers.get("x-service-contract-min"));
      const url = new URL(req.url);
      if (req.method === "OPTIONS") {
        // A CORS preflight from the allowed origin: answered here, before authentication and limits.
        const preflight = preflightHeaders(table, url.pathname, req.headers.get("origin"));
        if (preflight) return toResponse({ status: 204, headers: preflight, kind: "raw", body: "" }, requestId, headers);
      }
      const found = table.match(req.method, url.pathname);
      if (!found) throw new AppError("not_found", `No operation at ${url.pathname}.`);
      if ("allowed" in found) {
        throw new AppError("method_not_allowed", `${req.method} is not supported here; use ${found.allowed.join(", ")}.`, {
          headers: { Allow: found.allowed.join(", ") },
        });
      }
      const { route, params } = found;
      // Before anything can fail: a refusal (400, 429) must reach the landing page's script too.
      Object.assign(headers, corsHeaders(route, req.headers.get("origin")));
      assertCorsOrigin(route, req.headers.get("origin"));
      keyed = isWriteMethod(req.method) && route.idempotency === "required";
      assertSafeQuery(url.searchParams);
      Object.assign(headers, deprecationHeaders(route.deprecation));

      // Fetched on first use: a public plain route (the OpenAPI document) needs no database.
      let dbPromise: Promise<TDb> | undefined;
      const db = () => (dbPromise ??= getDb());
      const actor = await authenticateAtTheDoor(
        { db, access: route.access, ip: request.ip, hasBearer: req.headers.has("authorization"), headers, now },
        () => authenticate(db, req, route, request.ip),
      );
      if (actor.type === "owner" || actor.type === "agent") {
        const state = await consumeRateLimit(await db(), actor.tokenKey, getEnv().RATE_LIMIT_PER_MINUTE, now);
        Object.assign(headers, rateLimitHeaders(state));
        if (state.exceeded) throw rateLimitedError(state, now);
      }
      const rawBody = isWriteMethod(req.method)
        ? await readBodyCapped(req, route.maxBodyBytes ?? MAX_JSON_BODY_BYTES)
        : Buffer.alloc(0);
      const body =
        route.target.kind === "procedure" && isWriteMethod(req.method)
          ? parseJsonObject(rawBody, req.headers.get("content-type"))
          : undefined;

      // A plain route's slow part that needs no transaction (plain-route.ts `prepare`).
      const prepare = route.target.kind === "plain" ? route.target.route.prepare : undefined;
      const prepared = prepare
        ? await prepare({ ...request, req, getDb: db, actor, params, query: url.searchParams, rawBody })
        : undefined;
      try {
        // Anything thrown by the operation is its answer here; the idempotent path decides what to keep.
        const run = (runDb: () => Promise<TDbOrTx>) =>
          execute({ route, params, url, req, request, db: runDb, actor, body, rawBody, prepared }).catch((thrown: unknown) => {
            const error = toAppError(thrown);
            logIfUnexpected(error, request.log, req);
            return { outcome: errorOutcome(error, { keyed }), code: error.code };
          });

        if (isWriteMethod(req.method) && route.idempotency === "required") {
          const key = validateIdempotencyKey(req.headers.get("idempotency-key"));
          // Claim, write and stored answer commit together (or not at all): see runIdempotent.
          const result = await runIdempotent(
            await db(),
            {
              principal: principalOf(actor),
              key,
              method: req.method,
              path: url.pathname + url.search,
              body: body ?? rawBody,
            },
            { encrypt: route.secretInResponse, limits: route.transaction },
            (tx) => run(async () => tx),
          );
          await options.afterCommit?.(requestId);
          if (result.replayed) headers["Idempotent-Replayed"] = "true";
          return toResponse(result.outcome, requestId, headers);
        }

        const { outcome } = await run(db);
        await options.afterCommit?.(requestId);
        return toResponse(outcome, requestId, headers);
      } finally {
        prepared?.release?.();
      }
    } catch (thrown) {
      const error = toAppError(thrown);
      logIfUnexpected(error, logger ?? boundLog({ request_id: requestId }), req);
      return toResponse(errorOutcome(error, { keyed }), requestId, headers);
    }
  }

  async function execute(call: {
    route: TRoute;
    params: Record<string, string>;
    url: URL;
    req: Request;
    request: TRequestContext;
    db: () => Promise<TDbOrTx>;
    actor: TActor;
    body: Record<string, unknown> | undefined;
    rawBody: Buffer;
    prepared: unknown;
  }): Promise<{ outcome: TOutcome; code?: string }> {
    const { route, request } = call;
    noteWriter(call.req, call.actor); // the fleet's read-your-writes mark (fleet/write-marks.ts)
    // The route's declared access, procedure or plain, before the operation runs.
    await checkAccess(route.access, call.actor, { operation: operationOf(route), db: call.db, requestId: request.requestId });
    if (route.target.kind === "plain") {
      // A plain write (the statement upload) is refused on an expired plan as procedures are
      // (their builders check it: trpc/init.ts); signed webhooks and public routes have no owner caller.
      if (isWriteMethod(call.req.method) && (call.actor.type === "owner" || call.actor.type === "agent")) {
        await assertPlanWritable(await call.db(), call.actor.ownerId, request.clock.now());
      }
      const outcome = await route.target.route.handle({
        ...request,
        req: call.req,
        getDb: call.db,
        actor: call.actor,
        params: call.params,
        query: call.url.searchParams,
        rawBody: call.rawBody,
        prepared: call.prepared,
      });
      return { outcome };
    }
    const ctx = createContext(request, { db: await call.db(), actor: call.actor });
    const input = procedureInput(call.req.method, call.params, call.url.searchParams, call.body);
    const { procedurePath } = route.target;
    const data = await readFromReplicaWhenFresh(ctx, call.req.method, call.actor, () => callProcedure(ctx, procedurePath, input));
    const status = ctx.response.status ?? route.successStatus;
    const file = ctx.response.file;
    if (file) {
      const headers = {
        ...ctx.response.headers,
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
      };
      return typeof file.body === "string"
        ? { outcome: { status, headers, kind: "raw", body: file.body } }
        : { outcome: { status, headers, kind: "raw", body: "", bytes: file.body } };
    }
    return { outcome: { status, headers: ctx.response.headers, kind: "envelope", body: JSON.stringify(data) } };
  }

  return Object.assign(withRequestMetrics(withWriteMarks(handle, getDb), table), { routes: table });
}

async function authenticate(db: () => Promise<TDb>, req: Request, route: TRoute, ip: string | null): Promise<TActor> {
  if (route.access.kind === "signature") return PUBLIC_ACTOR; // the handler checks the signature
  const header = req.headers.get("authorization");
  // A public operation needs no bearer, but one that is sent must be valid (logout uses it).
  if (route.access.kind === "public" && header === null) return PUBLIC_ACTOR;
  const token = parseBearer(header);
  return authenticateToken(await db(), token, { ip });
}

/** The operation's name in access.denied audit entries (the panel's tRPC endpoint names procedures the same way). */
function operationOf(route: TRoute): string {
  return route.target.kind === "procedure" ? route.target.procedurePath : (route.target.route.openapi.operationId ?? route.path);
}

function logIfUnexpected(error: AppError, logger: TLogger, req: Request): void {
  if (error.code !== "internal_error") return;
  logger.error("request failed", { method: req.method, url: req.url, ...errorFields(error.cause ?? error) });
}
