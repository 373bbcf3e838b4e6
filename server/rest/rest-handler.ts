// THE /v1 REST layer. Every operation, procedure or plain route, passes through here once:
//   request context → contract version → route (one match) → authentication → rate limit →
//   body → idempotency → the operation (its policy first: access, plan; then resource grant,
//   limit, approval, write, audit) → envelope.
// A procedure's policy is its builder's middleware (trpc/init.ts); a plain route's is applied
// here with the same function (access/admit-operation.ts). Nothing is checked twice.
// The order of idempotency and access is pinned-wave2.md §1.3: a denial runs inside the
// keyed transaction but is not stored, so it claims no key and its audit entry stays.
// A write that requires an Idempotency-Key runs from the claim to its stored answer in one
// transaction, which the operation receives as its database (ctx.db, getDb()).
// Nothing here knows about a particular operation.
import { wwwAuthenticate } from "../oauth/oauth-service";
import type { AnyRouter } from "@trpc/server";
import { admitOperation } from "../access/admit-operation";
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
import { errorOutcome, toResponse, type TOutcome } from "./outcome";
import type { TPlainRoute } from "./plain-route";
import { assertCorsOrigin, corsHeaders, preflightHeaders } from "./cors";
import { authenticateAtTheDoor } from "./ip-limit";
import { createProcedureCaller, procedureInput } from "./procedure-call";
import { consumeRateLimit, rateLimitedError, rateLimitHeaders } from "./rate-limit";
import { systemClock, type TClock } from "../shared/clock";
import { parseJsonObject } from "../http/json-body";
import { assertSafeQuery, MAX_JSON_BODY_BYTES, readBodyCapped } from "./request-body";
import type { TFileFormat } from "../trpc/meta";
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
      if (error.status === 401) headers["WWW-Authenticate"] = wwwAuthenticate("v1"); // RFC 9728 §5.1 (server/oauth/)
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
    if (route.target.kind === "plain") {
      // A plain route is no procedure: the REST layer admits it under the same policy the
      // procedures' builders apply to themselves (access/admit-operation.ts).
      await admitOperation({ access: route.access, write: isWriteMethod(call.req.method) }, call.actor, {
        operation: route.target.route.openapi.operationId ?? route.path,
        db: call.db,
        requestId: request.requestId,
        now: request.clock.now(),
      });
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
    const input = procedureInput(call.req.method, call.params, call.url.searchParams, call.body);
    const { procedurePath } = route.target;
    const data = await readFromReplicaWhenFresh(await call.db(), call.req.method, call.actor, (db) =>
      callProcedure(createContext(request, { db, actor: call.actor }), procedurePath, input),
    );
    const status = answerStatus(route, data);
    const format = call.url.searchParams.get("format");
    const file =
      route.renderFile && route.files?.some((f) => f === format) ? route.renderFile(data, format as TFileFormat) : null;
    if (file) {
      const headers = {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
      };
      return typeof file.body === "string"
        ? { outcome: { status, headers, kind: "raw", body: file.body } }
        : { outcome: { status, headers, kind: "raw", body: "", bytes: file.body } };
    }
    return { outcome: { status, headers: {}, kind: "envelope", body: JSON.stringify(data) } };
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

/** The status of a procedure's answer: the other success its output matches (meta `otherSuccess`), else its declared one. */
function answerStatus(route: TRoute, output: unknown): number {
  const other = route.otherSuccess?.find((candidate) =>
    candidate.when ? candidate.when(output) : candidate.body === "pending_approval" && isPendingApproval(output),
  );
  return other?.status ?? route.successStatus;
}

/** `{ data: { approval: { id, status: "pending" } } }`: a write held for the owner's approval. */
function isPendingApproval(output: unknown): boolean {
  const data = (output as { data?: Record<string, unknown> } | null)?.data;
  const approval = data?.approval as { status?: unknown } | undefined;
  return !!data && Object.keys(data).length === 1 && approval?.status === "pending";
}

function logIfUnexpected(error: AppError, logger: TLogger, req: Request): void {
  if (error.code !== "internal_error") return;
  logger.error("request failed", { method: req.method, url: req.url, ...errorFields(error.cause ?? error) });
}
