// Writes an agent may make, by action name. The write pipeline (server/access) runs them; an
// approval runs a stored one when the owner approves it. A domain adds a write with
// defineAgentWrite and never touches either module.
import type { z } from "zod";
import type { TCaller } from "../auth/caller";
import type { TResource } from "../auth/grants";
import type { TScope } from "../auth/scopes";
import type { TDbOrTx, TTx } from "../db/client";

export type TAgentWrite<TInput extends { reason?: string }, TOutput> = {
  /** The approval's action, e.g. "ad_budget_change.create". */
  action: string;
  scope: TScope;
  /** The body schema (params_override on approval is validated by it too). */
  schema: z.ZodType<TInput>;
  /** What the write touches; throws not_found when it does not exist or is another owner's. */
  resourceOf: (db: TDbOrTx, ownerId: string, input: TInput) => Promise<TResource>;
  /** The money it commits, counted against the grant's limits. */
  amountOf?: (input: TInput) => { amountMinor: bigint; currency: string } | null;
  /** Does the write (and its audit entry) inside `tx`. */
  execute: (tx: TTx, caller: TCaller, input: TInput) => Promise<TOutput>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TAnyAgentWrite = TAgentWrite<any, unknown>;

const registry = new Map<string, TAnyAgentWrite>();

export function defineAgentWrite<TInput extends { reason?: string }, TOutput>(
  write: TAgentWrite<TInput, TOutput>,
): TAgentWrite<TInput, TOutput> {
  const existing = registry.get(write.action);
  if (existing && existing !== write) throw new Error(`Two agent writes named ${write.action}`);
  registry.set(write.action, write);
  return write;
}

export function findAgentWrite(action: string): TAnyAgentWrite | undefined {
  return registry.get(action);
}
