// Writes an agent may make, by action name. The write pipeline (server/access) runs them; an
// approval runs a stored one when the owner approves it. A domain adds a write with
// defineAgentWrite and never touches either module.
import type { z } from "zod";
import type { TCaller } from "../auth/caller";
import type { TResource } from "../auth/grants";
import type { TScope } from "../auth/scopes";
import type { TDbOrTx, TTx } from "../db/client";
import type { TAdBudgetEffect } from "./approval.schema";

/** The approval an executed write runs under, when its write records one (`recordApproval`). */
export type TWriteApproval = {
  id: string;
  /** The auto_approved approval of an agent's write counted within its limits (its id); else null. */
  limitChecked: string | null;
};

export type TAgentWrite<TInput extends { reason?: string }, TOutput> = {
  /** The approval's action, e.g. "ad_budget_change.create". */
  action: string;
  scope: TScope;
  /** The body schema (params_override on approval is validated by it too). */
  schema: z.ZodType<TInput>;
  /** What the write touches; throws not_found when it does not exist or is another owner's. */
  resourceOf: (db: TDbOrTx, ownerId: string, input: TInput, now: Date) => Promise<TResource>;
  /**
   * The money it commits, counted against the grant's limits, from the service's own records
   * (never from a figure the caller sends to lower it: pinned-wave3 §1.1). The pipeline calls it
   * inside the transaction that counts it, so what it reads may lock what it must stay true.
   */
  amountOf?: (db: TDbOrTx, ownerId: string, input: TInput) => Promise<{ amountMinor: bigint; currency: string } | null>;
  /**
   * Every execution has an approval: the pipeline creates an auto_approved one for the owner
   * (trigger owner) and for an agent at level execute (trigger within_limits) in the write's
   * transaction; an approved held write runs under the held one.
   */
  recordApproval?: boolean;
  /**
   * What held writes would commit if approved now, shown with their pending approvals (one call
   * for a page of them; null where nothing is known). Only ad budget changes have one so far.
   */
  effectsOf?: (db: TDbOrTx, ownerId: string, inputs: readonly TInput[], now: Date) => Promise<Array<TAdBudgetEffect | null>>;
  /** Does the write (and its audit entry) inside `tx`; `approval` is given when recordApproval is set. */
  execute: (tx: TTx, caller: TCaller, input: TInput, approval: TWriteApproval | null) => Promise<TOutput>;
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
