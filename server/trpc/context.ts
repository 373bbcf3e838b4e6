// The context of one call, built the same way for the REST layer and for the panel.
import type { TActor } from "../auth/actor";
import type { TDbOrTx } from "../db/client";

export type TResponseControl = {
  /** Overrides the procedure's declared success status (e.g. 202 for a pending approval). */
  status?: number;
  headers: Record<string, string>;
};

export type TContext = {
  db: TDbOrTx;
  actor: TActor;
  requestId: string;
  /** Where the call came from (used by IP allow-lists and audit). */
  ip: string | null;
  /** The client's User-Agent (recorded on sessions). */
  userAgent?: string | null;
  response: TResponseControl;
};

export function createContext(input: Omit<TContext, "response"> & { response?: TResponseControl }): TContext {
  return { ...input, response: input.response ?? { headers: {} } };
}
