// Prepared (named) statements on PostgreSQL, for the few reads that cost more to plan than to
// run. Coverage's fact queries, the latest cash and the open commitments run in nearly every
// read model's request; each is a handful of index probes (0.05–0.9 ms) whose planning, with
// financial_events' many partial indexes to prove, took 0.5–4 ms (scripts/bench/read.ts plans
// at 1,000,000 events). Named, each is parsed once per connection, and after five executions
// PostgreSQL keeps a generic plan when it is no dearer than the custom ones (its own rule,
// plan_cache_mode = auto): planning then costs ~0.02 ms.
//
// Opt-in, by a marker at the start of the SQL (`${PREPARED}SELECT …`): a generic plan is only
// safe for a statement whose best plan does not depend on its parameters' values, and each
// marked statement was checked for that (equalities on owner and scope, constant kinds; a
// day bound at most narrows an index range). Unmarked statements stay unnamed, planned for
// their values, as before. PGlite ignores the marker (a comment).
//
// The cache is per connection (pg's own), for the process's lifetime; the distinct texts are
// few (one per marked statement and scope shape), and past MAX_NAMES nothing more is named.
// A pooler in transaction mode must support prepared statements (PgBouncer ≥ 1.21 with
// max_prepared_statements) for DATABASE_URL to point at it.
import { createHash } from "node:crypto";
import { Prisma } from "./generated/client";

const MARK = "/* prepared */ ";

/** Put first in a `$queryRaw` template: `${PREPARED}SELECT …`. */
export const PREPARED = Prisma.raw(MARK);

const MAX_NAMES = 256;
const names = new Map<string, string>();

/**
 * The statement name for PrismaPg's `statementNameGenerator`: one per distinct marked SQL text
 * (a digest, so two texts never share a name), undefined (unnamed) otherwise.
 */
export function preparedStatementName(query: { sql: string }): string | undefined {
  if (!query.sql.startsWith(MARK)) return undefined;
  let name = names.get(query.sql);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) return undefined;
    name = `fbo_${createHash("sha256").update(query.sql).digest("base64url").slice(0, 32)}`;
    names.set(query.sql, name);
  }
  return name;
}
