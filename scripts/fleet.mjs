// `npm run fleet`: the service as a fleet on one machine, from Debian's packages and the files in
// deploy/ (docs/scaling.md):
//   - the PostgreSQL primary: the configured server (DATABASE_URL; replication allowed from
//     127.0.0.1 is added to its pg_hba.conf when missing);
//   - a streaming replica made with pg_basebackup into a scratch directory, on its own port;
//   - PgBouncer (session mode: deploy/pgbouncer.ini) in front of the primary;
//   - two app instances (scripts/serve.mjs), writing through PgBouncer, reading from the replica
//     (DATABASE_READ_URL), metrics on loopback ports;
//   - HAProxy (deploy/haproxy.cfg) balancing them with /readyz health checks.
// It prints the one URL to use; Ctrl-C stops everything it started and removes the scratch
// directory. pgbouncer and haproxy are installed with apt-get when missing (as .ci/run installs
// Chromium). Plain JavaScript: the fleet test (test/fleet/) imports startFleet.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/finance npm run fleet
//   FLEET_PORT (8080): HAProxy's port; the others follow it (see ports()).
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const { fetch, AbortSignal } = globalThis;

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

/** The fleet's ports, from HAProxy's: the replica, PgBouncer, the instances and their metrics. */
export function ports(base) {
  return {
    haproxy: base,
    replica: base + 1,
    pgbouncer: base + 2,
    apps: [base + 11, base + 12],
    metrics: [base + 21, base + 22],
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function which(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).status === 0;
}

/** pgbouncer and haproxy from Debian, installed when missing. */
export function ensurePackages(log = console.log) {
  const missing = ["pgbouncer", "haproxy"].filter((command) => !which(command));
  if (!missing.length) return;
  if (process.getuid?.() !== 0) throw new Error(`Missing ${missing.join(", ")}: apt-get install -y ${missing.join(" ")}`);
  log(`Installing ${missing.join(", ")} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", ...missing], { stdio: "inherit", env });
  if (install.status !== 0) throw new Error(`apt-get install ${missing.join(" ")} failed`);
}

/** The uid and gid the PostgreSQL tools run as: ours, or postgres's when we are root (they refuse root). */
function serviceUser() {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
  const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid, gid };
}

function chownTree(dir, user) {
  if (user.uid === undefined) return;
  spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, dir]);
}

async function withClient(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The primary made ready: the database exists, replication connections from 127.0.0.1 are
 * allowed (a line added to pg_hba.conf and the configuration reloaded when none is), and the
 * session settings PgBouncer does not pass on are the database's own.
 */
async function preparePrimary(primaryUrl, log) {
  const database = new URL(primaryUrl).pathname.slice(1);
  await withClient(databaseUrl(primaryUrl, "postgres"), async (client) => {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
    const rules = await client.query(
      "SELECT 1 FROM pg_hba_file_rules WHERE 'replication' = ANY(database) AND (type = 'local' OR address IN ('127.0.0.1', 'all', '0.0.0.0'))",
    );
    if (!rules.rowCount) {
      const { rows } = await client.query("SHOW hba_file");
      const hbaFile = rows[0].hba_file;
      log(`Allowing replication from 127.0.0.1 in ${hbaFile} (the replica's pg_basebackup and stream).`);
      fs.appendFileSync(
        hbaFile,
        "\n# Added by `npm run fleet`: the local streaming replica.\nhost replication all 127.0.0.1/32 trust\n",
      );
      await client.query("SELECT pg_reload_conf()");
      await sleep(300);
    }
    await client.query(`ALTER DATABASE "${database.replace(/"/g, '""')}" SET work_mem = '16MB'`);
    await client.query(`ALTER DATABASE "${database.replace(/"/g, '""')}" SET max_parallel_workers_per_gather = 0`);
  });
}

/** Settings a hot standby must have at least as high as its primary. */
async function primarySettings(primaryUrl) {
  const names = [
    "max_connections",
    "max_worker_processes",
    "max_wal_senders",
    "max_prepared_transactions",
    "max_locks_per_transaction",
  ];
  return withClient(primaryUrl, async (client) => {
    const { rows } = await client.query("SELECT name, setting FROM pg_settings WHERE name = ANY($1)", [names]);
    return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  });
}

async function waitFor(what, check, timeoutMs = 60_000) {
  const started = Date.now();
  let last;
  while (Date.now() - started < timeoutMs) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await sleep(200);
  }
  throw new Error(`${what} was not ready within ${timeoutMs} ms${last ? `: ${last.message}` : ""}`);
}

async function answers(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  return response.status === 200;
}

function render(template, values) {
  return template.replace(/@([A-Z_]+)@/g, (_, name) => {
    if (!(name in values)) throw new Error(`No value for @${name}@`);
    return String(values[name]);
  });
}

/**
 * Starts the fleet. Options: primaryUrl (DATABASE_URL), basePort, dir (scratch directory),
 * log (a line printer), output ("inherit": children's lines prefixed on this terminal;
 * "files": dir/<name>.log), env (added to the instances' environment), build (default true).
 */
export async function startFleet(options) {
  const log = options.log ?? console.log;
  const base = options.basePort ?? 8080;
  const port = ports(base);
  const primaryUrl = options.primaryUrl;
  const primary = new URL(primaryUrl);
  const dir = options.dir ?? path.join(os.tmpdir(), `fbo-fleet-${base}`);
  const user = serviceUser();
  const children = new Map();
  const output = options.output ?? "inherit";
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  // Whatever ends this process (a test runner's timeout too) ends the fleet's processes with it.
  process.once("exit", () => {
    for (const { child } of children.values()) child.kill("SIGKILL");
  });

  function run(name, command, args, spawnOptions = {}) {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], ...spawnOptions });
    const sink = output === "files" ? fs.createWriteStream(path.join(dir, `${name}.log`), { flags: "a" }) : null;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = "";
      stream.on("data", (chunk) => {
        if (sink) return void sink.write(chunk);
        const lines = (rest + chunk).split("\n");
        rest = lines.pop();
        for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
      });
    }
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    children.set(name, { child, exited });
    exited.then(() => {
      if (children.get(name)?.child === child) children.delete(name);
    });
    return { child, exited };
  }

  async function stopChild(name, signal = "SIGTERM", timeoutMs = 35_000) {
    const entry = children.get(name);
    if (!entry) return;
    entry.child.kill(signal);
    const timer = setTimeout(() => entry.child.kill("SIGKILL"), timeoutMs);
    await entry.exited;
    clearTimeout(timer);
  }

  const stopAll = async () => {
    await stopChild("haproxy");
    await Promise.all(port.apps.map((_, index) => stopChild(`app${index + 1}`)));
    await stopChild("pgbouncer", "SIGINT");
    await stopChild("replica", "SIGINT");
    if (!options.keepDir) fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    ensurePackages(log);
    log(`Primary: ${primary.hostname}:${primary.port || 5432}${primary.pathname}`);
    await preparePrimary(primaryUrl, log);

    // Secrets every instance shares: ENCRYPTION_KEY and AUTH_SECRET from the environment, else
    // generated once and kept beside the embedded data (DATA_DIR/fleet-*), so a restart reads them.
    const dataDir = path.resolve(ROOT, process.env.DATA_DIR ?? ".data");
    const secret = (name, bytes) => {
      if (options.env?.[name] ?? process.env[name]) return options.env?.[name] ?? process.env[name];
      const file = path.join(dataDir, `fleet-${name.toLowerCase().replace(/_/g, "-")}`);
      if (!fs.existsSync(file)) {
        fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(file, crypto.randomBytes(bytes).toString("hex"), { mode: 0o600 });
      }
      return fs.readFileSync(file, "utf8").trim();
    };
    const sharedEnv = { ENCRYPTION_KEY: secret("ENCRYPTION_KEY", 32), AUTH_SECRET: secret("AUTH_SECRET", 32) };

    // Migrations (on the primary itself) and the build, as `npm start` makes them.
    log("Applying migrations and building the app when needed…");
    const prepare = spawnSync(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["scripts/start.ts", "--prepare", ...(options.build === false ? ["--no-build"] : [])],
      {
        cwd: ROOT,
        stdio: output === "files" ? "pipe" : "inherit",
        env: { ...process.env, ...options.env, ...sharedEnv, DATABASE_URL: primaryUrl },
      },
    );
    if (prepare.status !== 0) throw new Error(`Preparing failed: ${prepare.stderr?.toString() ?? ""}`);

    // The replica: a base backup of the primary (streaming its WAL meanwhile, standby.signal and
    // primary_conninfo written by -R), its own configuration, on its own port.
    const replicaDir = path.join(dir, "replica");
    fs.mkdirSync(replicaDir, { mode: 0o700 });
    chownTree(dir, user);
    log(`Replica: pg_basebackup into ${replicaDir}…`);
    const backup = spawnSync(
      path.join(PG_BIN, "pg_basebackup"),
      [
        "-h",
        primary.hostname,
        "-p",
        primary.port || "5432",
        "-U",
        decodeURIComponent(primary.username || "postgres"),
        "-D",
        replicaDir,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
      ],
      { encoding: "utf8", ...user },
    );
    if (backup.status !== 0) throw new Error(`pg_basebackup failed: ${backup.stderr}`);
    const settings = await primarySettings(primaryUrl);
    fs.writeFileSync(
      path.join(replicaDir, "postgresql.conf"),
      [
        `port = ${port.replica}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        "hot_standby = on",
        "hot_standby_feedback = on",
        "max_standby_streaming_delay = 5s",
        ...Object.entries(settings).map(([name, value]) => `${name} = ${value}`),
        "",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(replicaDir, "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n");
    chownTree(replicaDir, user);
    const startReplica = async () => {
      run("replica", path.join(PG_BIN, "postgres"), ["-D", replicaDir], user);
      const replicaUrl = databaseUrl(
        `postgresql://${primary.username || "postgres"}@127.0.0.1:${port.replica}/`,
        primary.pathname.slice(1),
      );
      await waitFor("the replica", () =>
        withClient(replicaUrl, async (client) => (await client.query("SELECT pg_is_in_recovery() AS r")).rows[0].r),
      );
      return replicaUrl;
    };
    const replicaUrl = await startReplica();

    // PgBouncer, from deploy/pgbouncer.ini.
    const runDir = path.join(dir, "pgbouncer");
    fs.mkdirSync(runDir);
    fs.writeFileSync(path.join(runDir, "userlist.txt"), `"${decodeURIComponent(primary.username || "postgres")}" ""\n`);
    fs.writeFileSync(
      path.join(runDir, "pgbouncer.ini"),
      render(fs.readFileSync(path.join(ROOT, "deploy/pgbouncer.ini"), "utf8"), {
        PRIMARY_HOST: primary.hostname,
        PRIMARY_PORT: primary.port || 5432,
        PGBOUNCER_PORT: port.pgbouncer,
        RUN_DIR: runDir,
        PRIMARY_USER: decodeURIComponent(primary.username || "postgres"),
      }),
    );
    chownTree(runDir, user);
    run("pgbouncer", "pgbouncer", [path.join(runDir, "pgbouncer.ini")], user);
    const bouncerUrl = `postgresql://${primary.username || "postgres"}@127.0.0.1:${port.pgbouncer}${primary.pathname}`;
    await waitFor("PgBouncer", () => withClient(bouncerUrl, async (client) => (await client.query("SELECT 1")).rowCount === 1));

    // The instances.
    const publicUrl = `http://127.0.0.1:${port.haproxy}`;
    const appEnv = (index) => ({
      ...process.env,
      ...options.env,
      ...sharedEnv,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--max-old-space-size=${process.env.SERVER_HEAP_MB ?? 320}`]
        .filter(Boolean)
        .join(" "),
      PORT: String(port.apps[index]),
      DATABASE_URL: bouncerUrl,
      DATABASE_READ_URL: replicaUrl,
      METRICS_PORT: String(port.metrics[index]),
      SHUTDOWN_DRAIN_MS: options.env?.SHUTDOWN_DRAIN_MS ?? "5000",
      TRUST_PROXY: "1",
      PUBLIC_BASE_URL: options.env?.PUBLIC_BASE_URL ?? publicUrl,
    });
    const startInstance = async (index) => {
      const name = `app${index + 1}`;
      run(name, process.execPath, ["scripts/serve.mjs"], { env: appEnv(index) });
      await waitFor(name, () => answers(`http://127.0.0.1:${port.apps[index]}/readyz`), 120_000);
    };
    log("Starting two instances…");
    await Promise.all(port.apps.map((_, index) => startInstance(index)));

    // HAProxy, from deploy/haproxy.cfg.
    run("haproxy", "haproxy", ["-f", path.join(ROOT, "deploy/haproxy.cfg"), "-db"], {
      env: {
        ...process.env,
        FLEET_BIND: `127.0.0.1:${port.haproxy}`,
        FLEET_APP1: `127.0.0.1:${port.apps[0]}`,
        FLEET_APP2: `127.0.0.1:${port.apps[1]}`,
      },
    });
    await waitFor("HAProxy", () => answers(`${publicUrl}/readyz`));

    return {
      url: publicUrl,
      dir,
      ports: port,
      primaryUrl,
      bouncerUrl,
      replicaUrl,
      metricsUrl: (index) => `http://127.0.0.1:${port.metrics[index]}/metrics`,
      pid: (index) => children.get(`app${index + 1}`)?.child.pid,
      /** Resolves when the instance has exited (a signal sent by the caller). */
      exited: (index) => children.get(`app${index + 1}`)?.exited ?? Promise.resolve({ code: null, signal: null }),
      /** Sends a signal to an instance and waits for it to exit. */
      stopInstance: (index, signal = "SIGTERM") => stopChild(`app${index + 1}`, signal),
      startInstance,
      /** SIGTERM (a graceful stop), then a new instance on the same port, ready. */
      restartInstance: async (index) => {
        await stopChild(`app${index + 1}`, "SIGTERM");
        await startInstance(index);
      },
      stopReplica: () => stopChild("replica", "SIGINT"),
      startReplica,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function main() {
  const primaryUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/finance";
  const fleet = await startFleet({ primaryUrl, basePort: Number(process.env.FLEET_PORT ?? 8080) });
  console.log(`\nThe fleet is up: ${fleet.url}/  (Ctrl-C stops it)`);
  console.log(`  instances ${fleet.ports.apps.join(", ")}, metrics on 127.0.0.1:${fleet.ports.metrics.join(", ")}`);
  console.log(`  PgBouncer 127.0.0.1:${fleet.ports.pgbouncer}, replica 127.0.0.1:${fleet.ports.replica} (${fleet.dir})`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log("Stopping the fleet…");
    fleet.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
