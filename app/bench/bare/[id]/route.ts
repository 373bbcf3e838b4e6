// Mount point only: the handler is benchmark code (scripts/bench/bare-routes.ts, 404 unless BENCH_BARE_ROUTE=1).
export { bareGet as GET } from "@/scripts/bench/bare-routes";

export const dynamic = "force-dynamic";
