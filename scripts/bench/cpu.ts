// CPU time spent per request (or per event): a figure that, unlike a throughput ratio, hardly
// moves when other work shares the machine's cores. Read from /proc (Linux): the server's Node
// process (user + system time of all its threads) and the PostgreSQL backends serving the
// bench database, sampled just before and just after a measured run.
import fs from "node:fs";
import os from "node:os";
import pg from "pg";

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_S = 100;

export type TCpuReading = {
  /** The server's Node process: µs of CPU per request (or per unit the caller names). */
  server_us: number;
  /** PostgreSQL backends connected to the bench database: µs of CPU per request. */
  postgres_us: number;
  /** The load generator (this process): µs of CPU per request. */
  client_us: number;
};

/** User + system CPU of one process (all its threads) in µs, or undefined once it is gone. */
function processCpuUs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** The Node process serving HTTP in the server's process group (scripts/serve.mjs). */
export function findServeProcess(groupId: number): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue; // pgrp
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes("serve.mjs")) return Number(entry);
    } catch {
      // the process ended while we read it
    }
  }
  return undefined;
}

export type TCpuProbe = {
  /** Samples the start of a measured run. */
  start: () => Promise<void>;
  /** CPU per unit since start(), `units` being the requests (or events) the run completed. */
  stop: (units: number) => Promise<TCpuReading | undefined>;
  close: () => Promise<void>;
};

/**
 * A probe of the server process and the database's backends. Answers undefined readings where
 * /proc is not available (not Linux), so the benchmarks still run and report throughput.
 */
export async function createCpuProbe(serverGroupId: number, databaseUrl: string): Promise<TCpuProbe> {
  const serverPid = os.platform() === "linux" ? findServeProcess(serverGroupId) : undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ownPid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const backends = async (): Promise<Map<number, number>> => {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1",
      [ownPid],
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      const us = processCpuUs(pid);
      if (us !== undefined) cpu.set(pid, us);
    }
    return cpu;
  };
  let started: { server: number; backends: Map<number, number>; client: NodeJS.CpuUsage } | undefined;
  return {
    async start() {
      if (serverPid === undefined) return;
      started = { server: processCpuUs(serverPid) ?? 0, backends: await backends(), client: process.cpuUsage() };
    },
    async stop(units) {
      if (serverPid === undefined || !started || units <= 0) return undefined;
      const server = (processCpuUs(serverPid) ?? 0) - started.server;
      const client = process.cpuUsage(started.client);
      let postgres = 0;
      // A backend that connected during the run counts from zero (its start-up is a few ms).
      for (const [pid, us] of await backends()) postgres += us - (started.backends.get(pid) ?? 0);
      started = undefined;
      return {
        server_us: server / units,
        postgres_us: postgres / units,
        client_us: (client.user + client.system) / units,
      };
    },
    close: () => client.end(),
  };
}

/** Server, PostgreSQL and load-generator CPU together: what a request costs a saturated machine. */
export function totalUs(reading: TCpuReading): number {
  return reading.server_us + reading.postgres_us + reading.client_us;
}
