// Reports (issue 36): profit and loss by month, quarter or year with a trend per row, the
// categories' change against the previous period, cash over time with the measured days
// marked, and the exports. Every picker is a plain GET form, so the address holds the report
// (reload and share keep it); every figure links to the events behind it on the Events page.
import type { Metadata } from "next";
import Link from "next/link";
import { COMMON_CURRENCIES } from "@/components/businesses/currencies";
import { formatCalendarDay, parseDisplayCurrency } from "@/components/overview/figures";
import { FiguresRefused } from "@/components/panel/figures-refused";
import { PageHeader } from "@/components/panel/page-header";
import { CashHistoryChart, ProfitAndLossChart } from "@/components/reports/report-charts";
import { Sparkline } from "@/components/reports/sparkline";
import { CardHeader } from "@/components/ui/card";
import { FormAlert } from "@/components/ui/field";
import { formatMinor } from "@/lib/money";
import { reportEventsHref } from "@/lib/report-links";
import { toAppError } from "@/server/errors/to-app-error";
import type { TCashHistory, TProfitAndLoss } from "@/server/reports/report.schema";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";
import { loadInDisplayCurrency } from "../display-currency";
import { loadFigures } from "../figures-refused";

export const metadata: Metadata = { title: "Reports" };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

const INTERVALS = [
  { value: "month", label: "Months" },
  { value: "quarter", label: "Quarters" },
  { value: "year", label: "Years" },
] as const;
const GROUPS = [
  { value: "category", label: "Category" },
  { value: "type", label: "Type" },
  { value: "business", label: "Business" },
  { value: "project", label: "Project" },
] as const;

const one = (raw: string | string[] | undefined) => (typeof raw === "string" ? raw : undefined);
const isDay = (raw: string | undefined) => (raw && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined);

/** The report's query from the address: scope "" (everything), "personal" or "business:<id>". */
function queryOf(params: TSearchParams) {
  const scope = one(params.scope) ?? "";
  const interval = INTERVALS.find((i) => i.value === one(params.interval))?.value ?? "month";
  const groupBy = GROUPS.find((g) => g.value === one(params.group_by))?.value ?? "category";
  const from = isDay(one(params.from));
  const to = isDay(one(params.to));
  const scopeInput =
    scope === "personal"
      ? { personal: true }
      : scope.startsWith("business:") && /^[0-9a-f-]{36}$/i.test(scope.slice(9))
        ? { business_id: scope.slice(9) }
        : {};
  return { scope, interval, groupBy, from, to, scopeInput };
}

function periodLabel(period: { start: string; end: string }, interval: string, locale: string): string {
  if (interval === "year") return period.start.slice(0, 4);
  if (interval === "quarter") return `Q${Math.floor((Number(period.start.slice(5, 7)) - 1) / 3) + 1} ${period.start.slice(0, 4)}`;
  return new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${period.start}T00:00:00Z`),
  );
}

function Amount(props: { minor: number; currency: string; locale: string; href: string | null; label: string }) {
  const text = formatMinor(props.minor, props.currency, props.locale);
  return props.href ? (
    <Link href={props.href} aria-label={`${props.label}: ${text}, show the events`}>
      {text}
    </Link>
  ) : (
    <>{text}</>
  );
}

export default async function ReportsPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const [caller, me, params] = await Promise.all([getOwnerCaller(), getOwnerMe(), searchParams]);
  const query = queryOf(params);
  const requested = parseDisplayCurrency(params.display_currency);
  const businesses = (await caller.businesses.find({ limit: 100 })).data;

  let notice: string | null = null;
  const load = (range: { from?: string; to?: string }) =>
    loadInDisplayCurrency(requested, me.base_currency, (display_currency) =>
      loadFigures(async () => {
        const input = { ...query.scopeInput, ...range, display_currency };
        const [pnl, cash] = await Promise.all([
          caller.reports.profitAndLoss({ ...input, interval: query.interval, group_by: query.groupBy, format: "json" }),
          caller.reports.cashHistory({ ...input, format: "json" }),
        ]);
        return { pnl: pnl.data as TProfitAndLoss, cash: cash.data as TCashHistory };
      }),
    );
  let loaded;
  try {
    loaded = await load({ from: query.from, to: query.to });
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== "validation_error" && appError.code !== "not_found") throw error;
    notice = `${appError.message} The last 12 months and this one are shown instead.`;
    query.scopeInput = appError.code === "not_found" ? {} : query.scopeInput;
    loaded = await load({});
  }
  notice = loaded.notice ?? notice;
  const lead = "How each month went and where the money went, cash over time, and the files an accountant takes.";
  if (loaded.result.refused) {
    return (
      <div className="page">
        <PageHeader title="Reports" lead={lead} />
        <FiguresRefused refused={loaded.result.refused} headingId="reports-refused-heading" />
      </div>
    );
  }
  const { pnl, cash } = loaded.result.result;
  const locale = me.locale ?? "en-US";
  const currency = pnl.currency;
  const money = (minor: number) => formatMinor(minor, currency, locale);
  const exportQuery = new URLSearchParams({
    from: pnl.from,
    to: pnl.to,
    interval: pnl.interval,
    group_by: pnl.group_by,
    ...(query.scopeInput.business_id ? { business_id: query.scopeInput.business_id } : {}),
    ...(query.scopeInput.personal ? { personal: "true" } : {}),
    ...(currency !== me.base_currency ? { display_currency: currency } : {}),
  });
  const file = (path: string, format: string) => `/api/panel/reports/${path}?${exportQuery.toString()}&format=${format}`;
  const last = pnl.periods.length - 1;
  const currencies = [...new Set([me.base_currency, ...COMMON_CURRENCIES.map((c) => c.code), currency])];

  return (
    <div className="page">
      <PageHeader title="Reports" lead={lead} />
      {notice ? (
        <div className="page-notice">
          <FormAlert message={notice} />
        </div>
      ) : null}
      <section className="card" aria-label="Report settings">
        <form method="get" className="card-body toolbar report-form">
          <label className="report-field">
            <span className="label">Scope</span>
            <select className="select" name="scope" defaultValue={query.scope}>
              <option value="">Everything</option>
              <option value="personal">Personal</option>
              {businesses.map((b) => (
                <option key={b.id} value={`business:${b.id}`}>
                  {b.name}
                </option>
              ))}
            </select>
          </label>
          <label className="report-field">
            <span className="label">From</span>
            <input className="input" type="date" name="from" defaultValue={pnl.from} />
          </label>
          <label className="report-field">
            <span className="label">To</span>
            <input className="input" type="date" name="to" defaultValue={pnl.to} />
          </label>
          <label className="report-field">
            <span className="label">By</span>
            <select className="select" name="interval" defaultValue={pnl.interval}>
              {INTERVALS.map((i) => (
                <option key={i.value} value={i.value}>
                  {i.label}
                </option>
              ))}
            </select>
          </label>
          <label className="report-field">
            <span className="label">Rows</span>
            <select className="select" name="group_by" defaultValue={pnl.group_by}>
              {GROUPS.map((g) => (
                <option key={g.value} value={g.value}>
                  {g.label}
                </option>
              ))}
            </select>
          </label>
          <label className="report-field">
            <span className="label">Currency</span>
            <select className="select" name="display_currency" defaultValue={currency}>
              {currencies.map((code) => (
                <option key={code} value={code}>
                  {code === me.base_currency ? `${code} (base)` : code}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-secondary">
            Show
          </button>
        </form>
      </section>

      <section className="card" aria-labelledby="pnl-heading" data-testid="pnl-card">
        <CardHeader
          headingId="pnl-heading"
          title="Profit and loss"
          description={`${formatCalendarDay(pnl.from, locale)} to ${formatCalendarDay(pnl.to, locale)} · ${pnl.events_counted} events counted · ${currency}`}
        />
        <div className="card-body">
          <ProfitAndLossChart
            periods={pnl.periods}
            rows={pnl.rows.map((r) => ({ label: r.label, direction: r.direction, amounts: r.amounts_minor }))}
            totals={{ in: pnl.totals.in_minor, out: pnl.totals.out_minor, net: pnl.totals.net_minor }}
            currency={currency}
            caption={`Profit and loss by ${pnl.interval}`}
          />
        </div>
        <div className="table-scroll" role="region" aria-label="Profit and loss table" tabIndex={0}>
          <table className="table table-compact" data-testid="pnl-table">
            <caption className="visually-hidden">
              Profit and loss by {pnl.interval}, in {currency}
            </caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Trend</th>
                {pnl.periods.map((p) => (
                  <th key={p.start} scope="col" className="cell-right">
                    {periodLabel(p, pnl.interval, locale)}
                  </th>
                ))}
                <th scope="col" className="cell-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {pnl.rows.map((row) => (
                <tr key={`${row.direction}:${row.key}`} data-testid="pnl-row">
                  <th scope="row">
                    <span className={`money-${row.direction}`}>{row.direction === "in" ? "In" : "Out"}</span> {row.label}
                  </th>
                  <td>
                    <Sparkline values={row.amounts_minor} />
                  </td>
                  {row.amounts_minor.map((minor, i) => (
                    <td key={i} className="cell-right mono">
                      <Amount
                        minor={minor}
                        currency={currency}
                        locale={locale}
                        label={`${row.label}, ${periodLabel(pnl.periods[i]!, pnl.interval, locale)}`}
                        href={reportEventsHref(query.scopeInput, pnl.periods[i]!, pnl.group_by, row)}
                      />
                    </td>
                  ))}
                  <td className="cell-right mono">{money(row.total_minor)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {(
                [
                  ["In", pnl.totals.in_minor, pnl.totals.in_total_minor],
                  ["Out", pnl.totals.out_minor, pnl.totals.out_total_minor],
                  ["Net", pnl.totals.net_minor, pnl.totals.net_total_minor],
                ] as const
              ).map(([label, amounts, total]) => (
                <tr key={label} data-testid={`pnl-total-${label.toLowerCase()}`}>
                  <th scope="row">{label}</th>
                  <td>
                    <Sparkline values={amounts} />
                  </td>
                  {amounts.map((minor, i) => (
                    <td key={i} className="cell-right mono">
                      <Amount
                        minor={minor}
                        currency={currency}
                        locale={locale}
                        label={`${label}, ${periodLabel(pnl.periods[i]!, pnl.interval, locale)}`}
                        href={reportEventsHref(query.scopeInput, pnl.periods[i]!, pnl.group_by, {
                          direction: label === "In" ? "in" : label === "Out" ? "out" : null,
                        })}
                      />
                    </td>
                  ))}
                  <td className="cell-right mono">{money(total)}</td>
                </tr>
              ))}
            </tfoot>
          </table>
        </div>
      </section>

      {last >= 1 ? (
        <section className="card" aria-labelledby="change-heading" data-testid="change-card">
          <CardHeader
            headingId="change-heading"
            title={`${periodLabel(pnl.periods[last]!, pnl.interval, locale)} against ${periodLabel(pnl.periods[last - 1]!, pnl.interval, locale)}`}
          />
          <div className="table-scroll" role="region" aria-label="Change against the previous period" tabIndex={0}>
            <table className="table table-compact">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col" className="cell-right">
                    Previous
                  </th>
                  <th scope="col" className="cell-right">
                    Latest
                  </th>
                  <th scope="col" className="cell-right">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody>
                {pnl.rows.map((row) => {
                  const before = row.amounts_minor[last - 1]!;
                  const now = row.amounts_minor[last]!;
                  return (
                    <tr key={`${row.direction}:${row.key}`}>
                      <th scope="row">
                        {row.direction === "in" ? "In" : "Out"} {row.label}
                      </th>
                      <td className="cell-right mono">{money(before)}</td>
                      <td className="cell-right mono">{money(now)}</td>
                      <td className="cell-right mono">
                        {now - before > 0 ? "+" : ""}
                        {money(now - before)}
                        {before !== 0
                          ? ` (${now - before > 0 ? "+" : ""}${Math.round(((now - before) / Math.abs(before)) * 100)} %)`
                          : ""}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      <section className="card" aria-labelledby="cash-history-heading" data-testid="cash-history-card">
        <CardHeader
          headingId="cash-history-heading"
          title="Cash over time"
          description="Dots are measured balances (a snapshot that day); the line between them adds what was recorded since."
        />
        <div className="card-body">
          <CashHistoryChart days={cash.days} currency={cash.currency} caption="Closing cash each day" />
        </div>
      </section>

      <section className="card" aria-labelledby="exports-heading">
        <CardHeader
          headingId="exports-heading"
          title="Exports"
          description="The report as a spreadsheet, and the whole ledger of the period as double entry for Beancount or hledger."
        />
        <div className="card-body toolbar">
          <a className="button button-secondary" href={file("profit-and-loss", "csv")} download data-testid="export-pnl-csv">
            Profit and loss (CSV)
          </a>
          <a className="button button-secondary" href={file("profit-and-loss", "xlsx")} download>
            Profit and loss (Excel)
          </a>
          <a className="button button-secondary" href={file("cash-history", "csv")} download>
            Cash history (CSV)
          </a>
          <a className="button button-secondary" href={file("cash-history", "xlsx")} download>
            Cash history (Excel)
          </a>
          <a
            className="button button-secondary"
            href={`/api/panel/reports/ledger?format=beancount&from=${pnl.from}&to=${pnl.to}`}
            download
          >
            Ledger (Beancount)
          </a>
          <a
            className="button button-secondary"
            href={`/api/panel/reports/ledger?format=hledger&from=${pnl.from}&to=${pnl.to}`}
            download
          >
            Ledger (hledger)
          </a>
        </div>
      </section>
    </div>
  );
}
