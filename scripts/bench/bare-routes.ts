// The two bare route handlers `npm run bench` compares the /v1 REST layer with (scripts/bench/rest.ts).
// They live here, with the benchmark; app/bench/ only mounts them on the same Next server, so
// they pay the same routing cost as /v1. Both answer 404 unless the server was started with
// BENCH_BARE_ROUTE=1 (scripts/bench.ts sets it).
import { toBusinessDto } from "@/server/businesses/business-service";
import { getDatabase } from "@/server/db/client";
import { registerNodeDispatch } from "@/server/http/node-dispatch";

const enabled = () => process.env.BENCH_BARE_ROUTE === "1";

const BODY = JSON.stringify({
  data: {
    id: "00000000-0000-4000-8000-000000000000",
    name: "Bench Co",
    currency: "EUR",
    created_at: "2025-01-01T00:00:00.000Z",
    updated_at: "2025-01-01T00:00:00.000Z",
  },
  request_id: "req_00000000000000000000000000000000",
});

/**
 * GET /bench/bare/{id}: the baseline "bare handler". Same body shape and size as
 * `GET /v1/businesses/{id}`, but no request id, auth, rate limit, procedure or database.
 */
export function bareGet(): Response {
  if (!enabled()) return new Response(null, { status: 404 });
  return new Response(BODY, { status: 200, headers: { "content-type": "application/json" } });
}

/**
 * GET /bench/bare-db/{id}: the same JSON as `GET /v1/businesses/{id}`, read from the same row
 * with the same Prisma client, but without the REST layer (no request id, auth, rate limit,
 * tRPC, validation or envelope logic). Comparing with it isolates the layer's own cost from
 * the cost of the read.
 */
export async function bareDbGet(_req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!enabled()) return new Response(null, { status: 404 });
  const { id } = await params;
  const row = await (await getDatabase()).prisma.business.findUnique({ where: { id } });
  if (!row) return new Response(null, { status: 404 });
  const body = JSON.stringify({ data: toBusinessDto(row), request_id: "req_00000000000000000000000000000000" });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

const BARE_PATH = /^\/bench\/(bare|bare-db)\/([A-Za-z0-9-]+)$/;

/**
 * The bare routes reach their handlers the way plain /v1 paths do (straight from the server
 * entry once loaded: server/http/node-dispatch.ts), so the comparison is of handlers, not of
 * routing. Called by their mount points; only with BENCH_BARE_ROUTE=1.
 */
export function registerBareDispatch(): void {
  if (!enabled()) return;
  registerNodeDispatch(
    "bench-bare",
    async (req) => {
      const [, kind, id] = BARE_PATH.exec(new URL(req.url).pathname)!;
      return kind === "bare" ? bareGet() : bareDbGet(req, { params: Promise.resolve({ id: id! }) });
    },
    (url) => BARE_PATH.test(url.split("?", 1)[0]!),
  );
}
