// The Reports page's ledger download (Beancount or hledger), as the signed-in owner through the
// REST layer (server/rest/panel-download.ts).
import { panelDownload } from "@/server/rest/panel-download";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request): Promise<Response> {
  return panelDownload(req, `/v1/exports/ledger${new URL(req.url).search}`, "ledger export");
}
