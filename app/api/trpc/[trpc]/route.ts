// The panel's tRPC endpoint: server/trpc/panel-endpoint.ts.
import { handlePanelTrpc } from "@/server/trpc/panel-endpoint";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export { handlePanelTrpc as GET, handlePanelTrpc as POST };
