// The configured rate source: FX_SOURCE (mock by default) and, for ecb, FX_ECB_URL (default
// the ECB's public daily feed) and FX_ECB_TIMEOUT_MS (default 10000).
import { getEnv } from "../../env";
import { createEcbProvider } from "./ecb";
import { mockProvider } from "./mock";
import type { TFxProvider } from "./types";

export type { TFxProvider, TRateSet } from "./types";

let cached: { key: string; provider: TFxProvider } | undefined;

export function getFxProvider(): TFxProvider {
  const env = getEnv(); // validates FX_ECB_URL and FX_ECB_TIMEOUT_MS
  if (env.FX_SOURCE === "mock") return mockProvider;
  const url = env.FX_ECB_URL;
  const timeout = env.FX_ECB_TIMEOUT_MS;
  const key = `${url}|${timeout}`;
  if (cached?.key !== key) cached = { key, provider: createEcbProvider({ url, timeoutMs: timeout }) };
  return cached.provider;
}
