// Statements are parsed off the request thread (pinned-wave3 §1.5): one worker thread, started
// on the first upload and ended after a minute idle, takes the tasks one at a time in arrival
// order while the request thread goes on answering everyone else. A 10 MB statement costs the
// request thread one copy of its bytes and the parsed rows it gets back; the reading itself
// (decoding, papaparse, normalizing every row) happens in the thread, under a heap of its own:
// a file that outgrows it ends that thread (413, limit "memory"), never the server.
//
// One thread, not a pool: the machine this runs on has two cores, and a second parser would take
// the core the request thread needs. Uploads queue behind each other instead (each waits without
// holding a database connection: the upload route parses before its transaction).
import { Worker } from "node:worker_threads";
import { AppError } from "../errors/app-error";
import { log } from "../log";
import type { TDelimiter } from "./csv-reader";
import type { TParseOptions } from "./parse-statement";
import { statementTooLarge } from "./statement-limits";
import { fromTaskError, type TStatementInspection, type TStatementTask, type TStatementTaskResult } from "./statement-tasks";
import type { TWorkerReply, TWorkerRequest } from "./statement-worker";

/**
 * The parser thread's own heap (old generation). The largest statement (250,000 rows in 10 MB)
 * parses in 160 MB (measured: 128 MB runs out); the margin is for wider rows.
 */
export const PARSER_HEAP_MB = 224;
/**
 * A task over a file this large ends its thread once answered: what it read grew the thread's
 * heap, which an idle thread would keep for a minute, and the server's memory is the sum of
 * both threads'. A new thread starts in about 50 ms.
 */
const LARGE_INPUT_BYTES = 1024 * 1024;
const IDLE_MS = 60_000;

type TPending = { id: number; task: TStatementTask; resolve: (value: unknown) => void; reject: (error: unknown) => void };

function startWorker(heapMb: number): Worker {
  const options = {
    name: "statement-parser",
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, heapMb) },
  };
  // Inside the Next.js server the bundler compiles the thread's entry from this very expression
  // (`new Worker(new URL(…, import.meta.url))`); run from the TypeScript sources (vitest, tsx)
  // there is no bundle, and a bootstrap registers tsx's loader in the thread first.
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./statement-worker.ts", import.meta.url), options);
  const entry = new URL("./statement-worker.ts", import.meta.url).href;
  const bootstrap = new URL("./statement-worker-source.mjs", import.meta.url);
  return new Worker(bootstrap, { ...options, workerData: { entry } });
}

export class StatementParser {
  /** `heapMb`: the thread's old-generation heap (tests pass a small one to see it run out). */
  constructor(private readonly heapMb: number = PARSER_HEAP_MB) {}

  private worker: Worker | undefined;
  private current: TPending | undefined;
  private readonly queue: TPending[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  run<T extends TStatementTask>(task: T): Promise<TStatementTaskResult<T>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    clearTimeout(this.idleTimer);
    const next = this.queue.shift()!;
    this.current = next;
    const worker = this.ensureWorker();
    // Referenced while it works (a script awaiting a parse must not exit), not while idle.
    worker.ref();
    const request: TWorkerRequest = { id: next.id, task: next.task };
    worker.postMessage(request);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.heapMb);
    worker.on("message", (reply: TWorkerReply) => {
      const pending = this.current;
      if (!pending || pending.id !== reply.id) return;
      this.current = undefined;
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(fromTaskError(reply.error));
      if (pending.task.bytes.byteLength >= LARGE_INPUT_BYTES && this.worker === worker) {
        this.worker = undefined;
        void worker.terminate();
      }
      this.afterTask();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const pending = this.current;
      this.current = undefined;
      if (this.worker === worker) this.worker = undefined;
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
        log.warn("statement parser ran out of its heap; the upload is refused", { heap_mb: this.heapMb });
        pending?.reject(statementTooLarge("memory", this.heapMb, `Reading the statement needs more than ${this.heapMb} MB`));
      } else {
        pending?.reject(new AppError("internal_error", undefined, { cause: error }));
      }
      this.afterTask();
    });
    worker.on("exit", () => {
      // A thread ended on purpose (idle, or after a large parse) was already replaced: its exit
      // says nothing about the task the new one works on.
      if (this.worker !== worker) return;
      this.worker = undefined;
      const pending = this.current;
      if (pending) {
        this.current = undefined;
        pending.reject(new AppError("internal_error", undefined, { cause: new Error("the statement parser thread exited") }));
        this.afterTask();
      }
    });
    this.worker = worker;
    return worker;
  }

  /** Ends the thread now (tests); the next task starts another. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private afterTask(): void {
    if (this.queue.length > 0) {
      this.pump();
      return;
    }
    // An idle thread keeps no process alive, and gives its heap back after a while.
    this.worker?.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      this.worker = undefined;
      void worker?.terminate();
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

const HOLDER = Symbol.for("finance-back-office.statement-parser");

/** The process's one parser (kept on globalThis: the dev server reloads modules, the thread stays one). */
function parser(): StatementParser {
  const holder = globalThis as Record<symbol, StatementParser | undefined>;
  return (holder[HOLDER] ??= new StatementParser());
}

/** The file's header, delimiter and row count, or its refusal (415, 413, 400), read off the request thread. */
export function inspectStatementOffThread(bytes: Uint8Array, delimiter?: TDelimiter): Promise<TStatementInspection> {
  return parser().run({ kind: "inspect", bytes, delimiter });
}

/** The rows read with the first candidate that fits the header, off the request thread. */
export function parseStatementOffThread(
  bytes: Uint8Array,
  candidates: TParseOptions[],
): Promise<TStatementTaskResult<{ kind: "parse"; bytes: Uint8Array; candidates: TParseOptions[] }>> {
  return parser().run({ kind: "parse", bytes, candidates });
}
