// How many statement rows may be between parsed and stored at once in this process. A parsed
// row lives on the request thread until its import is stored (the preview's matching, the pages
// written): a 250,000-row statement holds about 100 MB there, and four at once ran the server's
// 320 MB heap out (the process died). Uploads take their statement's rows from this budget
// before they are parsed and give them back once answered, in arrival order; one that waits
// holds no database connection (the upload parses before its transaction).
export const UPLOAD_ROWS_IN_FLIGHT = 250_000;

type TWaiter = { weight: number; grant: () => void };

export class WeightedGate {
  private used = 0;
  private readonly waiters: TWaiter[] = [];

  constructor(readonly capacity: number) {}

  /** Waits for `weight` (at most the capacity; at least 1) and answers its release (idempotent). */
  async acquire(weight: number): Promise<() => void> {
    const need = Math.max(1, Math.min(this.capacity, Math.ceil(weight)));
    // First come, first served: a large upload is not passed forever by small ones.
    if (this.waiters.length > 0 || this.used + need > this.capacity) {
      await new Promise<void>((grant) => this.waiters.push({ weight: need, grant }));
    } else {
      this.used += need;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= need;
      this.wake();
    };
  }

  /** Rows taken and uploads waiting (tests and metrics). */
  get state(): { used: number; waiting: number } {
    return { used: this.used, waiting: this.waiters.length };
  }

  private wake(): void {
    while (this.waiters.length > 0 && this.used + this.waiters[0]!.weight <= this.capacity) {
      const next = this.waiters.shift()!;
      this.used += next.weight;
      next.grant();
    }
  }
}

const HOLDER = Symbol.for("finance-back-office.upload-gate");

/** The process's one gate (on globalThis: the dev server reloads modules). */
export function uploadGate(): WeightedGate {
  const holder = globalThis as Record<symbol, WeightedGate | undefined>;
  return (holder[HOLDER] ??= new WeightedGate(UPLOAD_ROWS_IN_FLIGHT));
}
