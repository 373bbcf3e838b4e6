// The write half of read-your-writes (read-routing.ts): the REST layer names the owner of each
// /v1 write as it runs (noteWriter), and once the handler has answered (the write committed),
// before the answer leaves, the owner's mark moves to the primary's WAL position.
import type { TActor } from "../auth/actor";
import type { TDbOrTx } from "../db/client";
import { markOwnerWrite } from "./read-routing";

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const writers = new WeakMap<Request, string>();

/** Called by the REST layer with each call's actor: a write of an owner or agent is remembered. */
export function noteWriter(req: Request, actor: TActor): void {
  if (!process.env.DATABASE_READ_URL || !WRITE_METHODS.has(req.method)) return;
  if (actor.type === "owner" || actor.type === "agent") writers.set(req, actor.ownerId);
}

export function withWriteMarks<THandler extends (req: Request) => Promise<Response>>(
  handle: THandler,
  primary: () => Promise<TDbOrTx>,
): THandler {
  if (!process.env.DATABASE_READ_URL) return handle;
  const marked = async (req: Request): Promise<Response> => {
    const response = await handle(req);
    const ownerId = writers.get(req);
    if (ownerId) await markOwnerWrite(ownerId, primary);
    return response;
  };
  return marked as THandler;
}
