// Counts the statements a piece of code runs: a Prisma client that names each operation
// (`model.operation`, raw ones as `.$queryRaw` etc.) in the order they ran.
import type { TTestApi } from "./api";

type TDb = TTestApi["db"];

export function recordingStatements(db: TDb): { db: TDb; names: string[] } {
  const names: string[] = [];
  const recording = db.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        names.push(`${model ?? ""}.${operation}`);
        return query(args);
      },
    },
  }) as unknown as TDb;
  return { db: recording, names };
}
