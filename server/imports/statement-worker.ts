// The statement parser thread's entry (statement-parser.ts starts it): runs one task per message,
// answering with the result or the error, never throwing past the message (a throw would end the thread).
import { parentPort } from "node:worker_threads";
import { runStatementTask, toTaskError, type TStatementTask } from "./statement-tasks";

export type TWorkerRequest = { id: number; task: TStatementTask };
export type TWorkerReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ReturnType<typeof toTaskError> };

parentPort?.on("message", ({ id, task }: TWorkerRequest) => {
  let reply: TWorkerReply;
  try {
    reply = { id, ok: true, result: runStatementTask(task) };
  } catch (error) {
    reply = { id, ok: false, error: toTaskError(error) };
  }
  parentPort!.postMessage(reply);
});
