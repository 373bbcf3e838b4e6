import type { TDb, TDbOrTx, TTx } from "./client";

// Prisma's transaction client also has $transaction (nested ones become savepoints on
// PostgreSQL and fail on PGlite), so the open transactions are remembered here.
const openTransactions = new WeakSet<object>();

/** Prisma's limits of an interactive transaction (defaults: 2 s to start, 5 s to finish). */
export type TTransactionLimits = { maxWait?: number; timeout?: number };

/**
 * Runs `fn` in a transaction, or inside the one `db` already is (the outer transaction's
 * limits then apply). Long units of work (a statement import) pass longer limits.
 */
export function inTransaction<T>(db: TDbOrTx, fn: (tx: TTx) => Promise<T>, limits?: TTransactionLimits): Promise<T> {
  if (openTransactions.has(db)) return fn(db as TTx);
  return (db as TDb).$transaction(async (tx) => {
    openTransactions.add(tx);
    return fn(tx);
  }, limits);
}
