// The time a request or a job runs at. Production reads the system clock; tests pass a clock
// they set, so nothing has to wait for a rate-limit window or a day to turn.
export type TClock = { now: () => Date };

export const systemClock: TClock = { now: () => new Date() };

/** A clock that stands still until moved (tests). */
export function fixedClock(start: Date | string): TClock & { set: (at: Date | string) => void; advance: (ms: number) => void } {
  let at = new Date(start);
  return {
    now: () => new Date(at),
    set: (next) => {
      at = new Date(next);
    },
    advance: (ms) => {
      at = new Date(at.getTime() + ms);
    },
  };
}
