// Starts and stops the production server exactly as a user does (`npm start` =
// scripts/start.ts: validate env, migrate, build when stale, serve with scripts/serve.mjs). The
// server runs in its own process group so that stopping it also ends its `next build` / serve children.
import fs from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

export type TServerOptions = {
  cwd: string;
  port: number;
  env: Record<string, string>;
  /** How long migration + an optional build + start may take. */
  readyTimeoutMs?: number;
  /** A path answering 200 once the server is up. */
  readyPath?: string;
  /** Aborting stops a server that is still starting (Ctrl-C during a build). */
  signal?: AbortSignal;
  /** Called once the server process exists (its pid is also its process group id). */
  onSpawn?: (pid: number) => void;
  /** Called with each output line of the server (prefixing and filtering is the caller's). */
  onLine?: (line: string, stream: "stdout" | "stderr") => void;
};

export type TRunningServer = {
  baseUrl: string;
  /** The process group of the server (for a last-resort synchronous kill). */
  pid: number;
  /** The last lines the server printed (for error messages). */
  tail: () => string;
  stop: () => Promise<void>;
};

const TAIL_LINES = 40;

/** `preferred` if it is free, else the next free port above it. */
export async function findFreePort(preferred: number, attempts = 50): Promise<number> {
  for (let port = preferred; port < preferred + attempts; port++) {
    if (await portIsFree(port)) return port;
  }
  throw new Error(`No free port in ${preferred}–${preferred + attempts - 1}`);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
  });
}

export async function startServer(options: TServerOptions): Promise<TRunningServer> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const tsx = path.join(options.cwd, "node_modules", ".bin", "tsx");
  const child = spawn(tsx, ["scripts/start.ts"], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group: see stop()
  });
  if (child.pid === undefined) throw new Error("Could not spawn the server");
  const pid = child.pid;
  options.onSpawn?.(pid);

  const lines: string[] = [];
  for (const stream of ["stdout", "stderr"] as const) {
    let pending = "";
    child[stream]!.setEncoding("utf8");
    child[stream]!.on("data", (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (lines.length > TAIL_LINES) lines.shift();
        options.onLine?.(line, stream);
      }
    });
  }
  const tail = () => lines.join("\n");

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );

  const stop = async () => {
    if (exited) return;
    signalGroup(child, "SIGTERM");
    const killed = await Promise.race([exit.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) {
      signalGroup(child, "SIGKILL");
      await exit;
    }
    // start.ts may exit before its children do: make sure the group is gone.
    signalGroup(child, "SIGKILL");
  };

  try {
    await waitUntilReady(
      `${baseUrl}${options.readyPath ?? "/"}`,
      options.readyTimeoutMs ?? 5 * 60_000,
      () => exited,
      options.signal,
    );
  } catch (error) {
    await stop();
    if (options.signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The server did not start: ${reason}\n--- last server output ---\n${tail()}`);
  }
  return { baseUrl, pid, tail, stop };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  killProcessGroup(child.pid!, signal);
}

/** Signals a whole process group; a group that is already gone is fine. */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

async function waitUntilReady(
  url: string,
  timeoutMs: number,
  exited: () => { code: number | null; signal: NodeJS.Signals | null } | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    const gone = exited();
    if (gone) throw new Error(`it exited (${gone.signal ?? `code ${gone.code}`})`);
    try {
      const timeout = AbortSignal.timeout(5_000);
      const res = await fetch(url, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
      await res.arrayBuffer();
      if (res.status === 200) return;
      last = `GET ${url} answered ${res.status}`;
    } catch (error) {
      signal?.throwIfAborted();
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(500, signal);
  }
  throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s (${last})`);
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Highest resident set (VmHWM, MB) of each process in the server's process group, keyed by
 * "<pid> <command line>". The import bench takes the largest; the restart test picks the server.
 */
export function peakRssByProcess(groupId: number): Record<string, number> {
  const peaks: Record<string, number> = {};
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue; // pgrp
      const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${entry}/status`, "utf8"));
      const name = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).slice(0, 2).join(" ");
      if (hwm) peaks[`${entry} ${name}`] = Math.round(Number(hwm[1]) / 1024);
    } catch {
      // the process ended while we read it
    }
  }
  return peaks;
}
