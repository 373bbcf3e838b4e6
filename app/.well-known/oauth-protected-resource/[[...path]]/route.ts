// GET /.well-known/oauth-protected-resource (RFC 9728): the MCP resource (/mcp), also at
// …/oauth-protected-resource/mcp (the path-inserted form MCP clients try first), and /v1's at
// …/oauth-protected-resource/v1. Any other path is 404.
import { metadataResponse, methodNotAllowed, preflight } from "@/server/oauth/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(_req: Request, { params }: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  const path = (await params).path?.join("/") ?? "";
  if (path === "" || path === "mcp") return metadataResponse("mcp");
  if (path === "v1") return metadataResponse("v1");
  return new Response(JSON.stringify({ error: "not_found" }), { status: 404, headers: { "content-type": "application/json" } });
}
export const OPTIONS = () => preflight();
export const POST = () => methodNotAllowed("GET");
