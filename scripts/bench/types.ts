// What a benchmark module gets from the runner (scripts/bench.ts) and gives back.
export type TBenchContext = {
  /** The running production server, e.g. `http://127.0.0.1:3190`. */
  baseUrl: string;
  /** The server's PostgreSQL database (benchmarks that compare with raw SQL). */
  databaseUrl: string;
  /** The server's process group (scripts/start.ts and the Next server it starts): memory readings. */
  serverPid: number;
  /** The static owner's bearer token (AUTH_MODE=static). */
  token: string;
  /** Measured-run length in seconds (default 10; `--duration=`). */
  durationSeconds: number;
  /** Warm-up length in seconds, not counted (default 2; `--warmup=`). */
  warmupSeconds: number;
  connections: number;
  /** Compared loads take turns in this many rounds, each a slice of durationSeconds (`--rounds=`, default 3). */
  rounds: number;
  /** Aborted on Ctrl-C: long loads stop early. */
  signal: AbortSignal;
  /** Where results go (bench-results/): benchmarks that write more than their JSON (read's plans). */
  resultsDir: string;
  /** The "read" benchmark: ledger sizes (`--read-events=`) and measured requests per operation (`--read-requests=`). */
  read: { eventSizes: number[]; requests: number };
};

export type TBenchOutcome = {
  /** Written as JSON to `bench-results/<name>.json`. */
  results: Record<string, unknown>;
  /** Human summary printed by the runner. */
  report: string;
  /** Something went wrong (non-2xx answers, connection errors): the run exits non-zero. */
  errors: string[];
};

export type TBenchmark = {
  name: string;
  description: string;
  /** How it loads the server, printed before it runs; default: the autocannon settings. */
  describeLoad?: (ctx: TBenchContext) => string;
  run: (ctx: TBenchContext) => Promise<TBenchOutcome>;
};
