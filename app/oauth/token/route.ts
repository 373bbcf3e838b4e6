// POST /oauth/token: the code (PKCE S256) or a refresh token for an agent token (server/oauth/).
import { methodNotAllowed, preflight, tokenHandler } from "@/server/oauth/http";
import { consumeIpLimit } from "@/server/rest/ip-limit";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const POST = tokenHandler({ ipLimit: (db, ip) => consumeIpLimit(db, "public", ip) });
export const OPTIONS = () => preflight();
export const GET = () => methodNotAllowed("POST");
