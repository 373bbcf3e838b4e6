// The identity "source": the same currency on both sides, rate 1, for any day. It never needs
// a published rate and is never stored, so it can neither be unsupported nor unavailable.
import type { TFxInfo } from "../fx.schema";

export const IDENTITY_RATE = "1.00000000";

export function identityFx(day: string, kind: TFxInfo["kind"]): TFxInfo {
  return { rate: IDENTITY_RATE, as_of: day, source: "identity", kind, stale: false };
}
