// The Projects tab's period (`?days=`): the last 30 or 90 days. A plain module, so the server
// page and the client view read the same values.
export const HEALTH_PERIODS = [30, 90] as const;
export type THealthPeriod = (typeof HEALTH_PERIODS)[number];

/** `?days=90` → 90; anything else → 30. */
export function parseHealthPeriod(raw: string | string[] | undefined): THealthPeriod {
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return (HEALTH_PERIODS as readonly number[]).includes(value) ? (value as THealthPeriod) : 30;
}
