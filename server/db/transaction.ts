import type { TDb, TDbOrTx, TTx } from "./client";

// Prisma's transaction client also has $transaction (nested ones become savepoints on
// PostgreSQL and fail on PGlite), so the open transactions are remembered here.
const openTransactions = new WeakSet<object>();
let savepoints = 0;

/** Prisma's limits of an interactive transaction (defaults: 2 s to start, 5 s to finish). */
export type TTransactionLimits = { maxWait?: number; timeout?: number };

/**
 * Runs `fn` in a transaction. Inside one `db` already is (a write under the REST layer's
 * request transaction), it runs in a savepoint: a throw undoes only what `fn` did and the
 * outer transaction goes on, as if `fn` had been a transaction of its own; the outer
 * transaction's limits then apply. Long units of work (a statement import) pass longer limits.
 */
export function inTransaction<T>(db: TDbOrTx, fn: (tx: TTx) => Promise<T>, limits?: TTransactionLimits): Promise<T> {
  if (openTransactions.has(db)) return inSavepoint(db as TTx, fn);
  return (db as TDb).$transaction(async (tx) => {
    openTransactions.add(tx);
    return fn(tx);
  }, limits);
}

async function inSavepoint<T>(tx: TTx, fn: (tx: TTx) => Promise<T>): Promise<T> {
  const name = `sp_${++savepoints}`;
  await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await fn(tx);
  } catch (error) {
    // Also clears PostgreSQL's "transaction is aborted" state after a failed statement.
    await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`);
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
    throw error;
  }
  await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
  return result;
}
