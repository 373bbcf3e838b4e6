// Mount point only: the handler is benchmark code (scripts/bench/bare-routes.ts, 404 unless BENCH_BARE_ROUTE=1).
import { registerBareDispatch } from "@/scripts/bench/bare-routes";

export { bareDbGet as GET } from "@/scripts/bench/bare-routes";

registerBareDispatch();

export const dynamic = "force-dynamic";
