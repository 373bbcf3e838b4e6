// Starts the statement parser thread from the TypeScript sources (tests, `npm run bench`, the
// scripts run by tsx), where no bundler has compiled it: tsx's loader first, then the entry.
// The built app never loads this file: its bundle holds the compiled thread (statement-parser.ts).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
