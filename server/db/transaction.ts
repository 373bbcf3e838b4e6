import type { TDb, TDbOrTx, TTx } from "./client";

// Prisma's transaction client also has $transaction (nested ones become savepoints on
// PostgreSQL and fail on PGlite), so the open transactions are remembered here.
const openTransactions = new WeakSet<object>();

/** Runs `fn` in a transaction, or inside the one `db` already is. */
export function inTransaction<T>(db: TDbOrTx, fn: (tx: TTx) => Promise<T>): Promise<T> {
  if (openTransactions.has(db)) return fn(db as TTx);
  return (db as TDb).$transaction(async (tx) => {
    openTransactions.add(tx);
    return fn(tx);
  });
}
