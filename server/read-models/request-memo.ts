// One answer per request for the reads several read models share. A read model made of others
// (the business context: summary, forecast and free capital; the overview; the daily brief)
// asks for the same scope's cash, reservations, commitments and coverage once per part; without
// this, the context alone ran 27 statements, seven of them twice or three times (bench read's
// plans). The key is the request's TOwnerDay (readOwnerDay makes one per request) and its
// database handle, so a transaction never sees an answer read outside it.
//
// Read models never write, so an answer holds for the whole request. A service that writes and
// then reads again in the same request must take a new TOwnerDay (readOwnerDay) for the second read.
import type { TDbOrTx } from "../db/client";
import type { TOwnerDay } from "../shared/owner-today";

const answers = new WeakMap<TOwnerDay, WeakMap<object, Map<string, Promise<unknown>>>>();

/** `compute()` once per (day, db, key); later calls get the same promise. */
export function oncePerRequest<T>(db: TDbOrTx, day: TOwnerDay, key: string, compute: () => Promise<T>): Promise<T> {
  let byDb = answers.get(day);
  if (!byDb) answers.set(day, (byDb = new WeakMap()));
  let byKey = byDb.get(db);
  if (!byKey) byDb.set(db, (byKey = new Map()));
  let answer = byKey.get(key) as Promise<T> | undefined;
  if (!answer) byKey.set(key, (answer = compute()));
  return answer;
}
