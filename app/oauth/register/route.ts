// POST /oauth/register (RFC 7591): an assistant registers itself as a public client (server/oauth/).
import { methodNotAllowed, preflight, registerHandler } from "@/server/oauth/http";
import { consumeIpLimit } from "@/server/rest/ip-limit";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const POST = registerHandler({ ipLimit: (db, ip) => consumeIpLimit(db, "public", ip) });
export const OPTIONS = () => preflight();
export const GET = () => methodNotAllowed("POST");
