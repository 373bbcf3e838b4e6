// Cash history (pinned-wave3 §4): each day's closing cash of a scope, from snapshots and the
// actuals after them.
//   snapshot  a snapshot of the scope was taken that day (owner timezone): the day's cash is K6
//             at the end of it (the latest snapshot of each account by then, each at today's
//             current rate, half even, summed), exactly cashPosition(…, { endOf: day }).
//   derived   no snapshot that day, one before: the last measured cash plus the counted actuals
//             (K3, K4: in − out, frozen base amounts) that occurred after that day, up to this one.
//             A project counts its business's cash and so its business's actuals.
//   none      no snapshot of the scope by then: no cash_minor.
// A display currency converts each day's cash once.
import { addDays } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { actualMoneySql, directionSql } from "../read-models/counted";
import { envelopeCoverage } from "../read-models/coverage";
import {
  currentAmounts,
  displayList,
  lateRateSql,
  snapshotConversionOf,
  staleSql,
  toBigInt,
  toDisplay,
  toMinor,
  type TSnapshotRow,
} from "../read-models/display";
import { dayEndExclusive, daySql, ownerDaySql, type TOwnerDay } from "../read-models/period";
import { cashScopeSql, eventScopeSql, toScopeRef, type TReadScope } from "../read-models/scope";
import type { TReportRange } from "./report-period";
import { CASH_HISTORY_COVERAGE_DOMAINS } from "./report.schema";

export type TCashDaySource = "snapshot" | "derived" | "none";

type TCashSnapshotRow = { account: string; day: string; currency: string; amount_minor: unknown };

/** The events a cash scope's derivation adds: a project's are its business's (its cash is). */
function cashEventsScope(scope: TReadScope): TReadScope {
  return scope.kind === "project" ? { kind: "business", businessId: scope.businessId } : scope;
}

export async function getCashHistory(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  query: TReportRange & { displayCurrency?: string },
) {
  const { from, to } = query;
  const start = dayEndExclusive(day.timezone, addDays(from, -1));
  const end = dayEndExclusive(day.timezone, to);
  const account = Prisma.sql`coalesce(cs.business_id::text, 'personal') || ':' || cs.account_id`;
  // Each account's latest snapshot before the range (K6's order), then every snapshot in it, oldest first.
  const snapshots = await db.$queryRaw<TCashSnapshotRow[]>`
    SELECT account, day, currency, amount_minor FROM (
      (SELECT DISTINCT ON (cs.business_id, cs.personal, cs.account_id)
              ${account} AS account, to_char(${ownerDaySql(Prisma.sql`cs.as_of`, day.timezone)}, 'YYYY-MM-DD') AS day,
              cs.currency::text AS currency, cs.amount_minor::text AS amount_minor,
              cs.as_of, cs.updated_at, cs.id
         FROM cash_snapshots cs
        WHERE ${cashScopeSql("cs", day.ownerId, scope)} AND cs.as_of < ${start}
        ORDER BY cs.business_id, cs.personal, cs.account_id, cs.as_of DESC, cs.updated_at DESC, cs.id DESC)
      UNION ALL
      (SELECT ${account}, to_char(${ownerDaySql(Prisma.sql`cs.as_of`, day.timezone)}, 'YYYY-MM-DD'),
              cs.currency::text, cs.amount_minor::text, cs.as_of, cs.updated_at, cs.id
         FROM cash_snapshots cs
        WHERE ${cashScopeSql("cs", day.ownerId, scope)} AND cs.as_of >= ${start} AND cs.as_of < ${end})
    ) s
    ORDER BY s.as_of, s.updated_at, s.id`;
  const valued = await currentAmounts(
    db,
    day,
    snapshots.map((s) => ({ amountMinor: toBigInt(s.amount_minor), currency: s.currency })),
  );

  // The actuals after the day the walk starts from (the latest snapshot day before the range, else
  // the first one in it): in − out per day, and the frozen rate groups behind them for the
  // envelope's fx (snapshotConversions' rows), in one scan.
  const before = snapshots.filter((s) => s.day < from);
  const startDay = before.length > 0 ? before.at(-1)!.day : snapshots[0]?.day;
  const eventsWhere = startDay
    ? Prisma.sql`${eventScopeSql("e", day.ownerId, cashEventsScope(scope))} AND ${actualMoneySql("e")}
        AND e.occurred_on > ${daySql(startDay)} AND e.occurred_on <= ${daySql(to)}`
    : null;
  type TFlowRow = TSnapshotRow & { set: "day" | "rate"; day: string | null; net: unknown };
  const [scanned, coverage] = await Promise.all([
    eventsWhere
      ? db.$queryRaw<TFlowRow[]>`
          SELECT CASE WHEN GROUPING(e.occurred_on) = 0 THEN 'day' ELSE 'rate' END AS set,
                 to_char(e.occurred_on, 'YYYY-MM-DD') AS day,
                 (COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'in'), 0)
                  - COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'out'), 0))::text AS net,
                 e.currency::text AS currency, e.fx_rate::text AS rate, to_char(e.fx_as_of, 'YYYY-MM-DD') AS as_of,
                 e.fx_source AS source, ${staleSql(lateRateSql("e"), Prisma.sql`e.fx_as_of`)} AS stale,
                 SUM(abs(e.base_amount_minor))::text AS weight
            FROM financial_events e
           WHERE ${eventsWhere}
           GROUP BY GROUPING SETS ((e.occurred_on), (e.currency, e.fx_rate, e.fx_as_of, e.fx_source))`
      : Promise.resolve([] as TFlowRow[]),
    envelopeCoverage(db, day, scope, CASH_HISTORY_COVERAGE_DOMAINS),
  ]);
  const flows = scanned.filter((r) => r.set === "day");
  const eventConversions = scanned.filter((r) => r.set === "rate" && r.rate !== null).map(snapshotConversionOf);
  const netOn = new Map(flows.map((f) => [f.day!, toBigInt(f.net)]));

  // Walk the days: the accounts' latest values, the last measured cash and what happened since.
  const balances = new Map<string, bigint>();
  let at = 0;
  let running: bigint | null = null;
  const apply = (through: string) => {
    let measured = false;
    while (at < snapshots.length && snapshots[at]!.day <= through) {
      balances.set(snapshots[at]!.account, valued.amounts[at]!);
      measured = snapshots[at]!.day === through || measured;
      at += 1;
    }
    return measured;
  };
  // Before the range: each account's latest, measured on the latest of their days.
  let sinceDay: string | null = null;
  while (at < snapshots.length && snapshots[at]!.day < from) {
    balances.set(snapshots[at]!.account, valued.amounts[at]!);
    sinceDay = snapshots[at]!.day; // oldest first: the last is the latest
    at += 1;
  }
  if (sinceDay !== null) {
    running = [...balances.values()].reduce((a, b) => a + b, 0n);
    for (const [d, net] of netOn) if (d > sinceDay && d < from) running += net;
  }
  const days: Array<{ date: string; source: TCashDaySource; cash: bigint | null }> = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    if (apply(d)) {
      running = [...balances.values()].reduce((a, b) => a + b, 0n);
      days.push({ date: d, source: "snapshot", cash: running });
    } else if (running !== null) {
      running += netOn.get(d) ?? 0n;
      days.push({ date: d, source: "derived", cash: running });
    } else {
      days.push({ date: d, source: "none", cash: null });
    }
  }

  const shown = await toDisplay(db, day, {
    displayCurrency: query.displayCurrency,
    components: {},
    conversions: [...valued.conversions, ...eventConversions],
  });
  const measured = days.filter((d) => d.cash !== null);
  const converted = await displayList(
    db,
    day,
    query.displayCurrency,
    measured.map((d) => d.cash!),
  );
  let next = 0;
  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      scope: toScopeRef(scope),
      from,
      to,
      days: days.map((d, i) =>
        d.cash === null
          ? { date: d.date, source: d.source }
          : { date: d.date, cash_minor: toMinor(converted[next++]!, `days.${i}.cash_minor`), source: d.source },
      ),
      fx_used: shown.fxUsed,
    },
    fx: shown.fx,
    coverage,
  };
}
