// Exists only for `npm run bench` (scripts/bench/rest.ts): a second baseline that returns the
// same JSON as `GET /v1/businesses/{id}` by reading the same row with the same Prisma client,
// but without the REST layer (no request id, auth, rate limit, tRPC, validation or envelope
// logic). Comparing with it isolates the layer's own cost from the cost of the read.
// Answers 404 unless the server was started with BENCH_BARE_ROUTE=1.
import { toBusinessDto } from "@/server/businesses/business-service";
import { getDatabase } from "@/server/db/client";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  if (process.env.BENCH_BARE_ROUTE !== "1") return new Response(null, { status: 404 });
  const { id } = await params;
  const row = await (await getDatabase()).prisma.business.findUnique({ where: { id } });
  if (!row) return new Response(null, { status: 404 });
  const body = JSON.stringify({ data: toBusinessDto(row), request_id: "req_00000000000000000000000000000000" });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}
