// What every example shares: its settings from the environment when it is run as a script
// (`npx tsx docs/examples/<name>.ts`), and printing its result. The guide's test imports the
// examples instead and calls them with a running service's address and real tokens.
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A required environment variable, or an exit naming it. */
export function setting(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} (see docs/agents.md).`);
    process.exit(2);
  }
  return value;
}

/** Runs `main` and prints its result when `moduleUrl` is the script node was started with. */
export function runAsScript(moduleUrl: string, main: () => Promise<unknown>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
