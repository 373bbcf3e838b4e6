// The Waitlist page's "Download CSV" link: GET /v1/waitlist?format=csv as the signed-in owner
// (server/rest/panel-download.ts), so the readers rule and the waitlist.export audit are the API's.
import { panelDownload } from "@/server/rest/panel-download";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request): Promise<Response> {
  return panelDownload(req, "/v1/waitlist?format=csv", "download");
}
