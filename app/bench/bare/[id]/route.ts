// Exists only for `npm run bench` (scripts/bench/rest.ts): the baseline "bare handler" that the
// full /v1 REST layer is compared with. Same Next server, same body shape and size as
// `GET /v1/businesses/{id}`, but no request id, auth, rate limit, procedure or database.
// Answers 404 unless the server was started with BENCH_BARE_ROUTE=1.
export const dynamic = "force-dynamic";

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

export function GET(): Response {
  if (process.env.BENCH_BARE_ROUTE !== "1") return new Response(null, { status: 404 });
  return new Response(BODY, { status: 200, headers: { "content-type": "application/json" } });
}
