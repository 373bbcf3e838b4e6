// Waking the delivery job when a notification queued an outside delivery, so its first attempt
// goes out at once rather than at the job's next tick. The write that raised the notification
// never waits: the wake is a timer, fired after the write's transaction has (most likely)
// committed; a delivery it misses (a transaction still open then) is caught by the job's
// regular run. The server registers the waker when it starts its jobs (jobs/registry.ts);
// without one (tests that call the job themselves) a wake does nothing.

/** After a notification's statement: time enough for its transaction to commit. */
const WAKE_DELAY_MS = 150;

// On globalThis, not in this module: Next.js starts the jobs from instrumentation.ts and runs the
// routes that raise notifications from other bundles, each with its own copy of this module; a
// module variable set by one was never seen by the other, so wakes did nothing there.
type TWakeState = { waker: (() => void) | null; timer: ReturnType<typeof setTimeout> | null };
const holder = globalThis as typeof globalThis & { notificationDeliveryWake?: TWakeState };
const state: TWakeState = (holder.notificationDeliveryWake ??= { waker: null, timer: null });

/** Sets (or, with null, removes) what a wake calls. */
export function setDeliveryWaker(wake: (() => void) | null): void {
  state.waker = wake;
}

/** Asks for a delivery run soon; many wakes within the delay make one run. */
export function wakeDeliveries(): void {
  if (!state.waker || state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    state.waker?.();
  }, WAKE_DELAY_MS);
  state.timer.unref();
}
