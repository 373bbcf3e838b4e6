// The ledger as plain-text double entry (pinned-wave3 §4): Beancount or hledger, streamed in
// bounded batches so a million events never sit in memory at once.
//
// What is written: the counted actual events that move money (K3, K4: the ones every read model
// sums; voided, reconciled duplicates, planned and non-money events are not money that moved),
// in occurred_on order, and the cash snapshots. One account tree per business and one for the
// personal finances (<S> = Business:<Name> | Personal):
//   Assets:<S>:Cash                every event's cash leg, in its original currency; a currency
//                                  other than the base carries "@@ <base amount> <base>", the
//                                  event's frozen rate as a total price
//   Income:<S>:Revenue             revenue (credits negative)
//   Income:<S>:Refunds             refunds of revenue (direction out)
//   Expenses:<S>:Costs:<Category>  expense, recurring_expense (and an actual planned_expense);
//                                  Uncategorized without a category
//   Expenses:<S>:Advertising       ad_spend
//   Expenses:<S>:Refunds           refunds of costs (direction in), negative
//   Assets:<S>:Bank:<Account>      each bank account's snapshots: the day's latest snapshot is a
//                                  balance assertion (Beancount: a `balance` the next morning;
//                                  hledger: `= amount` on the adjusting posting), reached by an
//                                  adjustment from Equity:<S>:Snapshots (the service does not know
//                                  which account an event went through, so the bank accounts
//                                  carry the measured balances and Cash the flows)
// The income and expense legs are in the base currency, at the events' frozen base amounts: the
// accounts' balances are the reports' figures.
import { Prisma } from "../db/generated/client";
import type { TDbOrTx } from "../db/client";
import { addDays } from "../../lib/days";
import { minorToMajor } from "../../lib/money";
import { actualMoneySql, directionSql } from "../read-models/counted";
import { daySql, ownerDaySql } from "../read-models/period";
import type { TOwnerDay } from "../shared/owner-today";

export const LEDGER_FORMATS = ["beancount", "hledger"] as const;
export type TLedgerFormat = (typeof LEDGER_FORMATS)[number];

/** Events read per batch. */
export const LEDGER_BATCH = 2_000;

/** A Beancount/hledger account name component: ASCII letters, digits and dashes, a capital or digit first. */
export function accountComponent(name: string): string {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (ascii === "") return "X";
  const first = ascii[0]!.toUpperCase();
  return /[A-Z0-9]/.test(first) ? first + ascii.slice(1) : `X${ascii}`;
}

/** The account tree's root of each business (unique names: a clash gets the id's first 8 characters). */
function scopeRoots(businesses: ReadonlyArray<{ id: string; name: string }>): Map<string | null, string> {
  const roots = new Map<string | null, string>([[null, "Personal"]]);
  const taken = new Set<string>();
  for (const b of [...businesses].sort((x, y) => x.id.localeCompare(y.id))) {
    let name = accountComponent(b.name);
    if (taken.has(name)) name = `${name}-${b.id.slice(0, 8)}`;
    taken.add(name);
    roots.set(b.id, `Business:${name}`);
  }
  return roots;
}

type TEventRow = {
  id: string;
  day: string;
  created_at: Date;
  business_id: string | null;
  type: string;
  direction: "in" | "out";
  category: string | null;
  description: string | null;
  amount_minor: string;
  currency: string;
  base_amount_minor: string;
};

/** The counter account of an event (its income or expense leg). */
export function counterAccount(root: string, e: { type: string; direction: "in" | "out"; category: string | null }): string {
  if (e.type === "revenue") return `Income:${root}:Revenue`;
  if (e.type === "refund") return e.direction === "out" ? `Income:${root}:Refunds` : `Expenses:${root}:Refunds`;
  if (e.type === "ad_spend") return `Expenses:${root}:Advertising`;
  return `Expenses:${root}:Costs:${e.category === null ? "Uncategorized" : accountComponent(e.category)}`;
}

/** Text safe in a Beancount string or an hledger description (one line, no comment or payee marks). */
function oneLine(text: string, format: TLedgerFormat): string {
  const flat = text.replace(/[\r\n\t]+/g, " ").trim();
  return format === "beancount" ? flat.replace(/\\/g, "\\\\").replace(/"/g, '\\"') : flat.replace(/[;|]/g, ",");
}

const negate = (minor: string) => (minor.startsWith("-") ? minor.slice(1) : minor === "0" ? "0" : `-${minor}`);
const abs = (minor: string) => (minor.startsWith("-") ? minor.slice(1) : minor);

export type TLedgerExportQuery = { format: TLedgerFormat; from?: string; to?: string };

/**
 * The export as a stream of text chunks: the header and account declarations, then the events
 * and snapshots day by day (a day's snapshots after its events), read LEDGER_BATCH events at a time.
 */
export async function* ledgerExport(db: TDbOrTx, day: TOwnerDay, query: TLedgerExportQuery): AsyncGenerator<string> {
  const { format } = query;
  const base = day.baseCurrency;
  const ownerId = day.ownerId;
  const range = Prisma.sql`${query.from ? Prisma.sql`AND e.occurred_on >= ${daySql(query.from)}` : Prisma.empty}
    ${query.to ? Prisma.sql`AND e.occurred_on <= ${daySql(query.to)}` : Prisma.empty}`;
  const counted = Prisma.sql`e.owner_id = ${ownerId}::uuid AND ${actualMoneySql("e")} ${range}`;
  const snapshotDay = ownerDaySql(Prisma.sql`cs.as_of`, day.timezone);
  const snapshotRange = Prisma.sql`${query.from ? Prisma.sql`AND ${snapshotDay} >= ${daySql(query.from)}` : Prisma.empty}
    ${query.to ? Prisma.sql`AND ${snapshotDay} <= ${daySql(query.to)}` : Prisma.empty}`;

  // Every account the file names, known before the first entry (Beancount opens them all).
  const [businesses, categories, snapshots, first] = await Promise.all([
    db.business.findMany({ where: { ownerId }, select: { id: true, name: true } }),
    db.$queryRaw<Array<{ business_id: string | null; type: string; direction: "in" | "out"; category: string | null }>>`
      SELECT DISTINCT e.business_id::text AS business_id, e.type, ${directionSql("e")} AS direction, e.category
        FROM financial_events e WHERE ${counted}`,
    // Each account's latest snapshot of each day (K6's order), oldest first: a bounded list (accounts × days).
    db.$queryRaw<Array<{ business_id: string | null; account_id: string; day: string; currency: string; amount_minor: string }>>`
      SELECT DISTINCT ON (s.business_id, s.personal, s.account_id, s.d)
             s.business_id::text AS business_id, s.account_id, to_char(s.d, 'YYYY-MM-DD') AS day,
             s.currency::text AS currency, s.amount_minor::text AS amount_minor
        FROM (SELECT cs.*, ${snapshotDay} AS d FROM cash_snapshots cs
               WHERE cs.owner_id = ${ownerId}::uuid ${snapshotRange}) s
       ORDER BY s.business_id, s.personal, s.account_id, s.d, s.as_of DESC, s.updated_at DESC, s.id DESC`,
    db.$queryRaw<Array<{ day: string | null }>>`
      SELECT to_char(MIN(e.occurred_on), 'YYYY-MM-DD') AS day FROM financial_events e WHERE ${counted}`,
  ]);
  const roots = scopeRoots(businesses);
  const rootOf = (businessId: string | null) => roots.get(businessId) ?? `Business:${businessId!.slice(0, 8)}`;
  const bankOf = (s: { business_id: string | null; account_id: string }) =>
    `Assets:${rootOf(s.business_id)}:Bank:${accountComponent(s.account_id)}`;
  snapshots.sort((a, b) => a.day.localeCompare(b.day));

  const accounts = new Set<string>();
  for (const c of categories) {
    accounts.add(`Assets:${rootOf(c.business_id)}:Cash`);
    accounts.add(counterAccount(rootOf(c.business_id), c));
  }
  for (const s of snapshots) {
    accounts.add(bankOf(s));
    accounts.add(`Equity:${rootOf(s.business_id)}:Snapshots`);
  }
  const openOn = [first[0]?.day, snapshots[0]?.day, query.from].filter((d): d is string => !!d).sort()[0] ?? day.today;

  const sorted = [...accounts].sort();
  // The header and every account, one chunk (the route waits for it before answering).
  yield format === "beancount"
    ? `; The ledger of owner ${ownerId} in ${base}, exported ${day.today} (Beancount).\n` +
      `option "title" "Finance back office ledger"\noption "operating_currency" "${base}"\n\n` +
      sorted.map((a) => `${openOn} open ${a}\n`).join("") +
      "\n"
    : `; The ledger of owner ${ownerId} in ${base}, exported ${day.today} (hledger).\ndecimal-mark .\n\n` +
      sorted.map((a) => `account ${a}\n`).join("") +
      "\n";

  // The snapshots, written after the events of their day (balances per bank account and currency).
  const assertedBalance = new Map<string, bigint>();
  let nextSnapshot = 0;
  const snapshotsThrough = (through: string | null): string => {
    let text = "";
    while (nextSnapshot < snapshots.length && (through === null || snapshots[nextSnapshot]!.day <= through)) {
      const s = snapshots[nextSnapshot++]!;
      const account = bankOf(s);
      const key = `${account} ${s.currency}`;
      const target = BigInt(s.amount_minor);
      const change = target - (assertedBalance.get(key) ?? 0n);
      assertedBalance.set(key, target);
      const amount = minorToMajor(change, s.currency);
      const balance = minorToMajor(target, s.currency);
      const equity = `Equity:${rootOf(s.business_id)}:Snapshots`;
      const title = `Cash snapshot ${oneLine(s.account_id, format)}`;
      if (format === "beancount") {
        if (change !== 0n) {
          text += `${s.day} * "${title}"\n  ${account}  ${amount} ${s.currency}\n  ${equity}  ${minorToMajor(-change, s.currency)} ${s.currency}\n\n`;
        }
        // A balance is checked at the start of its day: the closing balance of D is asserted on D + 1.
        text += `${addDays(s.day, 1)} balance ${account}  ${balance} ${s.currency}\n\n`;
      } else {
        text += `${s.day} ${title}\n    ${account}  ${amount} ${s.currency} = ${balance} ${s.currency}\n    ${equity}  ${minorToMajor(-change, s.currency)} ${s.currency}\n\n`;
      }
    }
    return text;
  };

  let cursor: { day: string; createdAt: Date; id: string } | null = null;
  for (;;) {
    const after: Prisma.Sql = cursor
      ? Prisma.sql`AND (e.occurred_on, e.created_at, e.id) > (${daySql(cursor.day)}, ${cursor.createdAt}, ${cursor.id}::uuid)`
      : Prisma.empty;
    const rows: TEventRow[] = await db.$queryRaw<TEventRow[]>`
      SELECT e.id::text AS id, to_char(e.occurred_on, 'YYYY-MM-DD') AS day, e.created_at, e.business_id::text AS business_id,
             e.type, ${directionSql("e")} AS direction, e.category, e.description,
             e.amount_minor::text AS amount_minor, e.currency::text AS currency, e.base_amount_minor::text AS base_amount_minor
        FROM financial_events e
       WHERE ${counted} ${after}
       ORDER BY e.occurred_on, e.created_at, e.id
       LIMIT ${LEDGER_BATCH}`;
    if (rows.length === 0) break;
    let text = "";
    for (const e of rows) {
      text += snapshotsThrough(addDays(e.day, -1));
      const root = rootOf(e.business_id);
      const inflow = e.direction === "in";
      const cash = inflow ? e.amount_minor : negate(e.amount_minor);
      const baseLeg = inflow ? negate(e.base_amount_minor) : e.base_amount_minor;
      const price = e.currency === base ? "" : ` @@ ${minorToMajor(BigInt(abs(e.base_amount_minor)), base)} ${base}`;
      const title = oneLine(e.description ?? e.type, format);
      const head =
        format === "beancount" ? `${e.day} * "${title}"\n  event_id: "${e.id}"\n` : `${e.day} ${title}  ; event_id:${e.id}\n`;
      const indent = format === "beancount" ? "  " : "    ";
      text +=
        head +
        `${indent}Assets:${root}:Cash  ${minorToMajor(BigInt(cash), e.currency)} ${e.currency}${price}\n` +
        `${indent}${counterAccount(root, e)}  ${minorToMajor(BigInt(baseLeg), base)} ${base}\n\n`;
    }
    yield text;
    const last = rows.at(-1)!;
    cursor = { day: last.day, createdAt: last.created_at, id: last.id };
    if (rows.length < LEDGER_BATCH) break;
  }
  yield snapshotsThrough(null);
}
