// The OAuth endpoints outside /v1 (pinned-wave3 §2.2), as web handlers the app's route handlers
// export: the metadata documents under /.well-known, POST /oauth/register and POST /oauth/token.
// They answer OAuth's own bodies (`{ error, error_description }`, RFC 6749 §5.2), not the
// contract's, since OAuth clients read those. Registration and the token endpoint are public
// calls: each spends the client IP's public budget (60 a minute, server/rest/ip-limit.ts, handed in
// by the route: a domain does not import the REST layer); the
// metadata documents open no database and are not counted (as GET /v1/openapi.json). All of them
// allow any origin (no cookie is read): browser-based MCP clients (the Inspector) call them.
import { clientIp } from "../auth/client-ip";
import { getDatabase, type TDb } from "../db/client";
import { readBodyCapped } from "../http/capped-body";
import { errorFields, log } from "../log";
import {
  authorizationServerMetadata,
  exchangeToken,
  OAuthError,
  protectedResourceMetadata,
  registerClient,
} from "./oauth-service";

const MAX_OAUTH_BODY_BYTES = 64 * 1024;

const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "600",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache", ...CORS_HEADERS, ...headers },
  });
}

function oauthError(error: OAuthError, headers: Record<string, string> = {}): Response {
  return json(error.status, { error: error.error, error_description: error.description }, headers);
}

/** The body, refused past 64 KiB (declared or streamed): the caller answers OAuth's error. */
const readCapped = (req: Request): Promise<Buffer> => readBodyCapped(req, MAX_OAUTH_BODY_BYTES);

/** OPTIONS on any OAuth endpoint: the CORS preflight. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}

export function metadataResponse(document: "authorization-server" | "mcp" | "v1"): Response {
  const body = document === "authorization-server" ? authorizationServerMetadata() : protectedResourceMetadata(document);
  return json(200, body, { "cache-control": "public, max-age=300" });
}

export function methodNotAllowed(allow: string): Response {
  return json(405, { error: "invalid_request", error_description: `Use ${allow}.` }, { allow: `${allow}, OPTIONS` });
}

type TGetDb = () => Promise<TDb>;
const defaultDb: TGetDb = async () => (await getDatabase()).prisma;

/** The per-IP limiter of public calls (server/rest/ip-limit.ts consumeIpLimit "public", wired by the route). */
export type TIpLimiter = (
  db: TDb,
  ip: string | null,
) => Promise<{ exceeded: boolean; limit: number; remaining: number; resetAt: number }>;

export type TOAuthEndpointOptions = { ipLimit: TIpLimiter; getDb?: TGetDb };

/** The public budget of the caller's IP; an answer when it is spent. */
async function ipLimited(
  limiter: TIpLimiter,
  db: TDb,
  req: Request,
): Promise<{ refusal: Response | null; headers: Record<string, string> }> {
  const state = await limiter(db, clientIp(req.headers));
  const headers = {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(state.resetAt),
  };
  if (!state.exceeded) return { refusal: null, headers };
  const retryAfter = Math.max(1, state.resetAt - Math.floor(Date.now() / 1000));
  return {
    refusal: json(
      429,
      { error: "rate_limited", error_description: `Too many requests; retry in ${retryAfter} s.` },
      {
        ...headers,
        "retry-after": String(retryAfter),
      },
    ),
    headers,
  };
}

async function guarded(req: Request, name: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) return oauthError(error);
    log.error(`oauth ${name} failed`, { url: req.url, ...errorFields(error) });
    return json(500, { error: "server_error", error_description: "Something went wrong on our side; retry later." });
  }
}

/** POST /oauth/register (RFC 7591). */
export function registerHandler(options: TOAuthEndpointOptions) {
  return (req: Request): Promise<Response> =>
    guarded(req, "register", async () => {
      const db = await (options.getDb ?? defaultDb)();
      const { refusal, headers } = await ipLimited(options.ipLimit, db, req);
      if (refusal) return refusal;
      if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
        throw new OAuthError("invalid_client_metadata", "The registration is a JSON body (Content-Type: application/json).");
      }
      let body: unknown;
      try {
        body = JSON.parse((await readCapped(req)).toString("utf8"));
      } catch {
        throw new OAuthError("invalid_client_metadata", "The body is not JSON (or larger than 64 KiB).");
      }
      return json(201, await registerClient(db, body), headers);
    });
}

/** POST /oauth/token (authorization_code with PKCE, refresh_token). */
export function tokenHandler(options: TOAuthEndpointOptions) {
  return (req: Request): Promise<Response> =>
    guarded(req, "token", async () => {
      const db = await (options.getDb ?? defaultDb)();
      const { refusal, headers } = await ipLimited(options.ipLimit, db, req);
      if (refusal) return refusal;
      if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) {
        throw new OAuthError("invalid_request", "The token request is a form (Content-Type: application/x-www-form-urlencoded).");
      }
      let form: URLSearchParams;
      try {
        form = new URLSearchParams((await readCapped(req)).toString("utf8"));
      } catch {
        throw new OAuthError("invalid_request", "The body is larger than 64 KiB.");
      }
      return json(200, await exchangeToken(db, form), headers);
    });
}
