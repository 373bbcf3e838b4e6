// Every /v1 request enters the one REST layer (server/rest/rest-handler.ts). Next.js routes the
// first one here; from then on scripts/serve.mjs hands plain /v1 paths to the same handler
// without Next.js's request pipeline (server/http/node-dispatch.ts).
import { registerNodeDispatch } from "@/server/http/node-dispatch";
import { getV1Handler } from "@/server/rest/v1";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = (req: Request) => getV1Handler()(req);

registerNodeDispatch("v1", handle);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS, handle as HEAD };
