"use client";
// The panel's home: the owner's whole position at a glance. Cash and runway in total and per
// business (with the moment the cash is as of and how well it is covered), free capital over
// the next 30 days, the last 30 days' money in and out, the committed costs of the next 30 days
// as a timeline, what waits for approval, and the latest alerts. Every figure is the API's
// (GET /v1/overview, /v1/coverage, each business's financial summary); this only lays them out.
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import type { TAlert } from "@/server/integrations/integration.schema";
import { AlertsCard } from "../integrations/alerts-card";
import { useDateFormat, usePreferences } from "../panel/preferences";
import { CardSection } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { BuildingIcon, ListIcon } from "../ui/icons";
import { CommittedCostsCard } from "./commitments-timeline";
import { CoveragePill } from "./coverage-pill";
import { FigureList } from "./figure-list";
import {
  cashAsOfWords,
  formatCalendarDay,
  nothingMoved,
  runwayWords,
  type TCash,
  type TCommitmentItem,
  type TCoverageStatus,
  type TRunway,
} from "./figures";
import { GettingStarted, gettingStartedState, isStarted } from "./getting-started";
import { InOutChart } from "./in-out-chart";

export type TOverviewBusinessRow = {
  business_id: string;
  name: string;
  currency: string;
  net_30d_minor: number;
  cash_minor: number | null;
  /** From the business's financial summary (null when it could not be loaded). */
  cash: TCash;
  runway: TRunway | null;
  /** The business's cash coverage (GET /v1/coverage). */
  cash_coverage: TCoverageStatus | null;
};

export type TOverviewFigures = {
  today: string;
  currency: string;
  base_currency: string;
  cash: TCash;
  free_capital_30d_minor: number | null;
  runway: TRunway;
  last_30_days: { in_minor: number; out_minor: number; net_minor: number };
  month_to_date: { from: string; in_minor: number; out_minor: number; net_minor: number };
  upcoming_costs: TCommitmentItem[];
  upcoming_total_minor: number;
  alerts: TAlert[];
  pending_approvals: number;
};

export function OverviewView(props: {
  overview: TOverviewFigures;
  businesses: TOverviewBusinessRow[];
  coverage: { overall: TCoverageStatus; cash: TCoverageStatus };
  /** Whether the owner has any financial event (hand entries, imported lines, synced data). */
  hasEvents: boolean;
}) {
  const { locale } = usePreferences();
  const format = useDateFormat();
  const { overview } = props;
  const currency = overview.currency;
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const runway = runwayWords(overview.runway, locale);
  const inOutRows = [
    { id: "last-30-days", name: "Last 30 days", ...overview.last_30_days },
    { id: "month-to-date", name: "Month to date", ...overview.month_to_date },
  ];
  const started = gettingStartedState({
    businesses: props.businesses.length,
    cash: overview.cash !== null,
    hasEvents: props.hasEvents,
  });

  return (
    <div className="stack stack-fill">
      {isStarted(started) ? null : <GettingStarted state={started} firstBusinessId={props.businesses[0]?.business_id ?? null} />}

      <section aria-labelledby="position-heading" className="card">
        <div className="card-header card-header-wrap">
          <div>
            <h2 id="position-heading">Your position</h2>
            <p>All businesses and personal, in {currency}.</p>
          </div>
          <span className="cell-stack">
            <CoveragePill status={props.coverage.cash} subject="Cash coverage" />
          </span>
        </div>
        <FigureList
          figures={[
            {
              id: "cash",
              label: "Cash",
              value: money(overview.cash?.amount_minor ?? null),
              detail: cashAsOfWords(overview.cash, format.dateTime),
              tone: overview.cash === null ? "muted" : undefined,
            },
            { id: "runway", label: "Runway", value: runway.headline, detail: runway.detail },
            {
              id: "free-capital",
              label: "Free capital, next 30 days",
              value: money(overview.free_capital_30d_minor),
              detail:
                overview.free_capital_30d_minor === null
                  ? "Needs a cash balance."
                  : "Cash less reservations and the next 30 days' committed costs.",
              tone: overview.free_capital_30d_minor !== null && overview.free_capital_30d_minor < 0 ? "danger" : undefined,
            },
            {
              id: "net-30d",
              label: "Net, last 30 days",
              value: money(overview.last_30_days.net_minor),
              detail: `${money(overview.last_30_days.in_minor)} in, ${money(overview.last_30_days.out_minor)} out`,
            },
            {
              id: "approvals",
              label: "Pending approvals",
              value: <Link href="/approvals">{new Intl.NumberFormat(locale).format(overview.pending_approvals)}</Link>,
              detail: overview.pending_approvals === 0 ? "Nothing waits for you." : "Agents' requests and held writes.",
            },
          ]}
        />
      </section>

      <BusinessesCard rows={props.businesses} currency={currency} />

      <div className="grid-2 grid-overview">
        <CardSection
          headingId="in-out-heading"
          title="Money in and out"
          description={`The last 30 days, and this month since ${formatCalendarDay(overview.month_to_date.from, locale)}.`}
        >
          {nothingMoved(inOutRows) ? (
            <EmptyState icon={<ListIcon />} title="Nothing in or out yet">
              <Link href="/events">Record revenue and expenses</Link>, <Link href="/imports">import a bank statement</Link> or{" "}
              <Link href="/integrations">connect an integration</Link>.
            </EmptyState>
          ) : (
            <div className="card-body">
              <InOutChart
                testId="in-out-chart"
                caption={`Money in and out in ${currency}`}
                rowHeader="Period"
                inLabel="In"
                outLabel="Out"
                currency={currency}
                rows={inOutRows}
              />
            </div>
          )}
        </CardSection>

        <CommittedCostsCard
          items={overview.upcoming_costs}
          totalMinor={overview.upcoming_total_minor}
          baseCurrency={overview.base_currency}
          currency={currency}
        />
      </div>

      <AlertsCard alerts={overview.alerts} isPending={false} isError={false} limit={10} />
    </div>
  );
}

function BusinessesCard({ rows, currency }: { rows: TOverviewBusinessRow[]; currency: string }) {
  const { locale } = usePreferences();
  const format = useDateFormat();
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  return (
    <section className="card" aria-labelledby="businesses-heading">
      <div className="card-header">
        <div>
          <h2 id="businesses-heading">Cash and runway by business</h2>
          <p>Each business&apos;s latest balances, in {currency}.</p>
        </div>
      </div>
      {rows.length === 0 ? (
        <EmptyState icon={<BuildingIcon />} title="No businesses yet">
          Add the companies you keep books for under <Link href="/businesses">Businesses</Link>; each one&apos;s cash and runway
          appears here.
        </EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact table-stack" data-testid="businesses-table">
            <thead>
              <tr>
                <th scope="col">Business</th>
                <th scope="col" className="cell-right">
                  Cash
                </th>
                <th scope="col">Coverage</th>
                <th scope="col">Runway</th>
                <th scope="col" className="cell-right">
                  Net, 30 days
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const runway = row.runway ? runwayWords(row.runway, locale) : null;
                return (
                  <tr key={row.business_id} data-business={row.business_id}>
                    <th scope="row" className="cell-name">
                      <Link href={`/businesses/${row.business_id}`}>{row.name}</Link>
                      <span className="cell-sub">
                        <span className="badge">{row.currency}</span>
                      </span>
                    </th>
                    <td className="cell-right" data-label="Cash">
                      <span className="mono" data-testid="business-cash">
                        {money(row.cash_minor)}
                      </span>
                      <span className="cell-sub">{cashAsOfWords(row.cash, format.dateTime)}</span>
                    </td>
                    <td data-label="Coverage">
                      {row.cash_coverage ? <CoveragePill status={row.cash_coverage} subject="Cash coverage" /> : "—"}
                    </td>
                    <td data-label="Runway" data-testid="business-runway">
                      {runway ? (
                        <>
                          <span className="cell-strong">{runway.headline}</span>
                          {row.runway?.runs_out_on ? (
                            <span className="cell-sub">until {formatCalendarDay(row.runway.runs_out_on, locale)}</span>
                          ) : null}
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="cell-right mono" data-label="Net, 30 days" data-testid="business-net">
                      {money(row.net_30d_minor)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
