// What the server entry (scripts/serve.mjs, plain JavaScript outside the bundle) needs from the
// app, left on globalThis once per process (instrumentation.ts): readiness for /readyz, the
// metrics registry, and the shutdown hooks it awaits on SIGTERM
// (the jobs register theirs: jobs/start-in-server.ts).
import { metrics } from "../metrics/registry";
import { readiness } from "./readiness";

export const FLEET_HOOKS_KEY = Symbol.for("finance-back-office.fleet-hooks");

export type TFleetHooks = {
  readiness: typeof readiness;
  renderMetrics: () => Promise<string>;
};

export function installFleetHooks(): void {
  const store = globalThis as unknown as Record<symbol, TFleetHooks | undefined>;
  store[FLEET_HOOKS_KEY] = { readiness, renderMetrics: () => metrics().render() };
}
