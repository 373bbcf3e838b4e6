// The Reports page's cash-history download (?format=csv|xlsx with the page's own query), as the signed-in
// owner through the REST layer (server/rest/panel-download.ts).
import { panelDownload } from "@/server/rest/panel-download";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request): Promise<Response> {
  return panelDownload(req, `/v1/reports/cash-history${new URL(req.url).search}`, "report");
}
