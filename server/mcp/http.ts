// POST /mcp: the MCP companion over Streamable HTTP, stateless (one server per request, JSON
// answers, no session and no server-sent stream).
//
// The door is the /v1 door, with the same functions in the same order: contract minimum, the
// bearer through the per-IP door (authenticateAtTheDoor → parseBearer → authenticateToken: an
// agent's agt_ token, an owner's ses_ session token or the static owner token; a panel cookie
// is not a credential here), then the token's per-minute rate. A refusal is the contract's
// error body. Past the door, each tool call is a /v1 call made with the same Authorization
// header through the REST layer (operation-call.ts), which authenticates, counts and checks it
// again as it does every call: this door only refuses early and never widens anything.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateToken, parseBearer } from "../auth/authenticate";
import { createRequestContext, newRequestId } from "../auth/request-context";
import { getDatabase, type TDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { toAppError } from "../errors/to-app-error";
import { boundLog, errorFields } from "../log";
import { wwwAuthenticate } from "../oauth/oauth-service";
import { assertContractMin, CONTRACT_VERSION } from "../rest/contract";
import { authenticateAtTheDoor } from "../rest/ip-limit";
import { errorOutcome, toResponse } from "../rest/outcome";
import { consumeRateLimit, rateLimitedError, rateLimitHeaders } from "../rest/rate-limit";
import { MAX_JSON_BODY_BYTES, readBodyCapped } from "../rest/request-body";
import { systemClock, type TClock } from "../shared/clock";
import { createMcpServer } from "./mcp-server";
import { jsonRpcBodyRefusal } from "./message-rules";
import { isJsonMediaType } from "../http/json-body";
import { forwardedHeaders, type TDispatch } from "./operation-call";
import type { TProcedures } from "./tools";
import { defaultContractDir } from "./resources";

export const MCP_PATH = "/mcp";
/** The methods /mcp answers (OPTIONS and every 405 say so). */
export const MCP_ALLOW = "OPTIONS, POST";

export type TMcpHandlerOptions = {
  /** The /v1 REST layer the tools call (the app's own handler). */
  v1: TDispatch;
  /** The app router's procedures: the operations that are tools. */
  procedures: TProcedures;
  getDb?: () => Promise<TDb>;
  clock?: TClock;
  contractDir?: string;
};

export type TMcpHandler = (req: Request) => Promise<Response>;

/** A JSON-RPC message carries at most a /v1 body (1 MB) and its envelope. */
const MAX_MCP_BODY_BYTES = MAX_JSON_BODY_BYTES + 64 * 1024;

export function createMcpHandler(options: TMcpHandlerOptions): TMcpHandler {
  const getDb = options.getDb ?? (async () => (await getDatabase()).prisma);
  const clock = options.clock ?? systemClock;
  const contractDir = options.contractDir ?? defaultContractDir();

  return async function handle(req: Request): Promise<Response> {
    const requestId = newRequestId();
    const headers: Record<string, string> = {};
    try {
      if (req.method === "OPTIONS") {
        // What /mcp answers, truthfully: POST (and this). No credential is asked for it.
        return new Response(null, {
          status: 204,
          headers: { Allow: MCP_ALLOW, "x-request-id": requestId, "x-service-contract": CONTRACT_VERSION },
        });
      }
      if (req.method !== "POST") {
        // Stateless: no server-sent stream to open (GET) and no session to end (DELETE).
        throw new AppError("method_not_allowed", `${req.method} is not supported here; use POST.`, {
          headers: { Allow: MCP_ALLOW },
        });
      }
      // Streamable HTTP: a browser page of another site must not reach a local or signed-in
      // server (DNS rebinding, cross-site calls). Clients outside a browser send no Origin.
      const origin = req.headers.get("origin");
      if (origin !== null && origin !== new URL(getEnv().publicBaseUrl).origin) {
        throw new AppError("csrf_rejected", `Origin ${origin} may not call /mcp; only this service's own pages may.`);
      }
      const request = createRequestContext(req.headers, { clock, requestId });
      const now = clock.now();
      assertContractMin(req.headers.get("x-service-contract-min"));
      let dbPromise: Promise<TDb> | undefined;
      const db = () => (dbPromise ??= getDb());
      const actor = await authenticateAtTheDoor(
        { db, access: { kind: "owner_or_agent" }, ip: request.ip, hasBearer: req.headers.has("authorization"), headers, now },
        async () => authenticateToken(await db(), parseBearer(req.headers.get("authorization")), { ip: request.ip }),
      );
      if (actor.type !== "owner" && actor.type !== "agent") throw new AppError("unauthenticated");
      const state = await consumeRateLimit(await db(), actor.tokenKey, getEnv().RATE_LIMIT_PER_MINUTE, now);
      Object.assign(headers, rateLimitHeaders(state));
      if (state.exceeded) throw rateLimitedError(state, now);

      // The body under /v1's rules before the SDK sees it: JSON by its media type (415), capped
      // (413), parseable, at most 64 levels deep (message-rules.ts).
      const contentType = req.headers.get("content-type");
      if (!contentType || !isJsonMediaType(contentType)) {
        throw new AppError(
          "unsupported_media_type",
          `MCP messages are JSON; Content-Type ${contentType ?? "(none)"} is not accepted.`,
        );
      }
      const raw = await readBodyCapped(req, MAX_MCP_BODY_BYTES);
      const refusal = jsonRpcBodyRefusal(raw, requestId);
      if (refusal) return refusal;
      const message = new Request(req.url, { method: "POST", headers: req.headers, body: new Uint8Array(raw) });

      const server = createMcpServer({
        target: { dispatch: options.v1, origin: new URL(req.url).origin, headers: forwardedHeaders(req.headers) },
        procedures: options.procedures,
        caller: actor.type === "owner" ? { type: "owner" } : { type: "agent", grants: actor.grants },
        contractDir,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: MAX_MCP_BODY_BYTES,
      });
      try {
        await server.connect(transport);
        const answer = await transport.handleRequest(message);
        const body = await answer.arrayBuffer(); // complete before the server closes
        const out = new Headers(answer.headers);
        for (const [name, value] of Object.entries(headers)) out.set(name, value);
        out.set("cache-control", "no-store");
        out.set("x-request-id", requestId);
        out.set("x-service-contract", CONTRACT_VERSION);
        return new Response(answer.status === 202 || body.byteLength === 0 ? null : body, {
          status: answer.status,
          headers: out,
        });
      } finally {
        await server.close();
      }
    } catch (thrown) {
      const error = toAppError(thrown);
      // RFC 9728 §5.1: a 401 says where the OAuth metadata is (server/oauth/).
      if (error.status === 401) headers["WWW-Authenticate"] = wwwAuthenticate("mcp");
      if (error.code === "internal_error") {
        boundLog({ request_id: requestId }).error("mcp request failed", { url: req.url, ...errorFields(error.cause ?? error) });
      }
      return toResponse(errorOutcome(error), requestId, headers);
    }
  };
}
