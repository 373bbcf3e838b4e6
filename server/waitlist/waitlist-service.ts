// The waitlist's rules (contract Waitlist rules; pinned-wave2.md §5.1): joining keeps the first
// row of a lower-cased email and reveals nothing; only the readers of §1.7 may read it, and each
// read is audited.
import { auditCaller } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { pageArgs, toPage, type TPage, type TPageQuery } from "../shared/pagination";
import {
  WAITLIST_SOURCES_MAX,
  WAITLIST_USER_AGENT_MAX,
  type TJoinWaitlistBody,
  type TWaitlistEntry,
  type TWaitlistSources,
} from "./waitlist.schema";

type TWaitlistRow = { id: string; email: string; source: string | null; userAgent: string | null; createdAt: Date };

/** Cut to `max` code points, never in the middle of a surrogate pair. */
function cutCodePoints(value: string, max: number): string {
  const points = Array.from(value);
  return points.length > max ? points.slice(0, max).join("") : value;
}

/** Stores the email once (the existing row is kept); a filled honeypot stores nothing. */
export async function joinWaitlist(db: TDbOrTx, body: TJoinWaitlistBody, userAgent: string | null): Promise<void> {
  if (body.website) return;
  const agent = userAgent ? cutCodePoints(userAgent, WAITLIST_USER_AGENT_MAX) : null;
  await db.waitlistEntry.upsert({
    where: { email: body.email },
    create: { email: body.email, source: body.source, userAgent: agent },
    update: {},
  });
}

/** The owner emails that may read the waitlist (pinned-wave2.md §1.7). */
async function readerEmails(db: TDbOrTx): Promise<string[]> {
  const env = getEnv();
  if (env.WAITLIST_READERS && env.WAITLIST_READERS.length > 0) return env.WAITLIST_READERS;
  if (env.AUTH_MODE === "static") return [env.STATIC_OWNER_EMAIL.toLowerCase()];
  const first = await db.owner.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { email: true } });
  return first ? [first.email.toLowerCase()] : [];
}

/** Whether this owner email is one of the waitlist's readers (Me.waitlist_reader: the panel lists the page only for them). */
export async function isWaitlistReader(db: TDbOrTx, email: string): Promise<boolean> {
  return (await readerEmails(db)).includes(email.toLowerCase());
}

/** Another owner answers 404, as if the waitlist did not exist (agents never get here: owner-only). */
export async function assertWaitlistReader(db: TDbOrTx, caller: TCaller): Promise<void> {
  const owner = await db.owner.findUnique({ where: { id: caller.ownerId }, select: { email: true } });
  const readers = await readerEmails(db);
  if (!owner || !readers.includes(owner.email.toLowerCase())) throw new AppError("not_found", "No operation at /v1/waitlist.");
}

function toEntry(row: TWaitlistRow): TWaitlistEntry {
  return { email: row.email, source: row.source, created_at: row.createdAt.toISOString(), user_agent: row.userAgent };
}

/** One page, newest first; audited as waitlist.read. */
export async function findWaitlistPage(
  db: TDbOrTx,
  caller: TCaller,
  query: TPageQuery,
): Promise<{ data: TWaitlistEntry[]; page: TPage }> {
  await assertWaitlistReader(db, caller);
  const args = pageArgs(query);
  const rows = await db.waitlistEntry.findMany({ where: args.where, orderBy: args.orderBy, take: args.take });
  const { rows: kept, page } = toPage(rows, query.limit);
  await auditCaller(db, caller, "waitlist.read", null, { count: kept.length });
  return { data: kept.map(toEntry), page };
}

const EXPORT_BATCH = 1_000;

/** Every entry, oldest first, in bounded batches; `onBatch` writes them out. Returns the count. */
export async function forEachWaitlistBatch(db: TDbOrTx, onBatch: (rows: TWaitlistEntry[]) => void): Promise<number> {
  let after: { createdAt: Date; id: string } | undefined;
  let count = 0;
  for (;;) {
    const rows: TWaitlistRow[] = await db.waitlistEntry.findMany({
      where: after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {},
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: EXPORT_BATCH,
    });
    if (rows.length === 0) return count;
    count += rows.length;
    onBatch(rows.map(toEntry));
    const last = rows.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
    if (rows.length < EXPORT_BATCH) return count;
  }
}

/** Audits the CSV download (`{ count }`). */
export function auditWaitlistExport(db: TDbOrTx, caller: TCaller, count: number): Promise<{ id: string }> {
  return auditCaller(db, caller, "waitlist.export", null, { count });
}

/** How many entries each source brought, most first; a reader's read like the list, not audited (no entry is named). */
export async function countWaitlistBySource(db: TDbOrTx, caller: TCaller): Promise<TWaitlistSources> {
  await assertWaitlistReader(db, caller);
  // One more than shown tells whether there are more; source ties ordered so pages of equal counts are stable.
  const groups = await db.waitlistEntry.groupBy({
    by: ["source"],
    _count: { id: true },
    orderBy: [{ _count: { id: "desc" } }, { source: { sort: "asc", nulls: "last" } }],
    take: WAITLIST_SOURCES_MAX + 1,
  });
  const total = await db.waitlistEntry.count();
  const shown = groups.slice(0, WAITLIST_SOURCES_MAX).map((group) => ({ source: group.source, count: group._count.id }));
  const shownCount = shown.reduce((sum, group) => sum + group.count, 0);
  return { total, sources: shown, other_count: Math.max(0, total - shownCount), truncated: groups.length > WAITLIST_SOURCES_MAX };
}
