// The Events page's "Export CSV" link: GET /v1/events/export with the page's own filters (the
// same query string), as the signed-in owner (server/rest/panel-download.ts).
import { panelDownload } from "@/server/rest/panel-download";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request): Promise<Response> {
  return panelDownload(req, `/v1/events/export${new URL(req.url).search}`, "export");
}
