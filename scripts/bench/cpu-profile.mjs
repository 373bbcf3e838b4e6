// `npm run bench -- --profile`: loaded into the server's processes with NODE_OPTIONS=--import
// (node refuses --cpu-prof there). In the serving process (scripts/serve.mjs) only, it samples
// the CPU from start to exit and writes a .cpuprofile (Chrome DevTools, speedscope) into
// BENCH_PROFILE_DIR when the runner stops the server. Plain JavaScript: it loads before tsx.
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_PROFILE_DIR;
if (dir && process.argv.some((arg) => arg.endsWith("serve.mjs"))) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  // µs between samples: fine enough for a per-request breakdown, cheap enough not to distort it.
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  // The in-process inspector session answers synchronously, so this runs to the end at exit.
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (error) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
