// GET /.well-known/oauth-authorization-server (RFC 8414): where an assistant registers, sends the
// owner to approve and exchanges its code (server/oauth/).
import { metadataResponse, methodNotAllowed, preflight } from "@/server/oauth/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = () => metadataResponse("authorization-server");
export const OPTIONS = () => preflight();
export const POST = () => methodNotAllowed("GET");
