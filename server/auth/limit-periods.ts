// The periods a grant's spending limits count in: the UTC day and the UTC month. One home for
// the counting (access/limits.ts) and for reading the counters back (agents/me, the panel).

/** The UTC day and UTC month `now` counts in (their counters' period_start). */
export function periodStarts(now: Date): { day: Date; month: Date } {
  return {
    day: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())),
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
  };
}

/** When the counters of `now`'s UTC day and month start again at zero. */
export function periodEnds(now: Date): { day: Date; month: Date } {
  return {
    day: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}
