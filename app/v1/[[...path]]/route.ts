// Every /v1 request enters the one REST layer (server/rest/rest-handler.ts).
import { getV1Handler } from "@/server/rest/v1";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = (req: Request) => getV1Handler()(req);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS, handle as HEAD };
