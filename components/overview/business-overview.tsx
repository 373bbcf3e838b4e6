"use client";
// A business's own Overview, at the top of its page: cash (as of when, how well covered),
// runway, free capital over 30 days, the last 30 days' net and burn; the balance forecast over
// 7, 30 or 90 days (committed line and run-rate line); the last 30 days in and out by project;
// the next 30 days' committed costs; the business's recent alerts. Every figure is the API's
// (financial summary, forecast, free capital, coverage); this only lays them out.
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import type { TAlert } from "@/server/integrations/integration.schema";
import { AlertsCard } from "../integrations/alerts-card";
import { useDateFormat, usePreferences } from "../panel/preferences";
import { CardSection } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { ListIcon } from "../ui/icons";
import { CommittedCostsCard } from "./commitments-timeline";
import { CoveragePill } from "./coverage-pill";
import { FigureList } from "./figure-list";
import { COMMITTED_LABEL, ForecastChart, RUN_RATE_LABEL } from "./forecast-chart";
import {
  cashAsOfWords,
  FORECAST_HORIZONS,
  formatCalendarDay,
  forecastPoints,
  hasBalances,
  nothingMoved,
  runwayWords,
  type TCash,
  type TCommitmentItem,
  type TCoverageStatus,
  type TForecastDay,
  type TForecastHorizon,
  type TRunway,
} from "./figures";
import { InOutChart } from "./in-out-chart";

export type TBusinessFigures = {
  summary: {
    currency: string;
    base_currency: string;
    from: string;
    to: string;
    net_revenue_minor: number;
    outflow_minor: number;
    net_minor: number;
    /** Business scope only. */
    by_project?: { project_id: string | null; in_minor: number; out_minor: number; net_minor: number }[];
    cash: TCash;
    runway: TRunway;
    burn: { monthly_net_minor: number; monthly_gross_minor: number };
    events_counted: number;
  };
  forecast: {
    today: string;
    horizon_days: number;
    reserved_minor: number;
    days: TForecastDay[];
    ending_balance_committed_minor: number | null;
    ending_balance_with_run_rate_minor: number | null;
    lowest_balance: { date: string; amount_minor: number } | null;
  };
  freeCapital: {
    free_capital_minor: number | null;
    reserved_minor: number;
    committed: { total_minor: number };
    items: TCommitmentItem[];
  };
  coverage: { overall: TCoverageStatus; cash: TCoverageStatus };
  alerts: TAlert[];
};

export function BusinessOverview(props: {
  figures: TBusinessFigures;
  projects: ReadonlyMap<string, string>;
  horizon: TForecastHorizon;
  /** The page's other query parameters, kept by the horizon links. */
  query: Record<string, string>;
}) {
  const { locale } = usePreferences();
  const format = useDateFormat();
  const { summary, forecast, freeCapital, coverage } = props.figures;
  const currency = summary.currency;
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const runway = runwayWords(summary.runway, locale);
  const points = forecastPoints(forecast.days);
  const projectRows = (summary.by_project ?? []).map((row) => ({
    id: row.project_id ?? "none",
    name: row.project_id === null ? "No project" : (props.projects.get(row.project_id) ?? "Project"),
    in_minor: row.in_minor,
    out_minor: row.out_minor,
    net_minor: row.net_minor,
  }));

  return (
    <div className="stack stack-fill">
      <section aria-labelledby="position-heading" className="card">
        <div className="card-header card-header-wrap">
          <div>
            <h2 id="position-heading">Position</h2>
            <p>
              In {currency}; the last 30 days are {formatCalendarDay(summary.from, locale)} to{" "}
              {formatCalendarDay(summary.to, locale)}.
            </p>
          </div>
          <span className="cell-stack">
            <CoveragePill status={coverage.cash} subject="Cash coverage" />
          </span>
        </div>
        <FigureList
          figures={[
            {
              id: "cash",
              label: "Cash",
              value: money(summary.cash?.amount_minor ?? null),
              detail: cashAsOfWords(summary.cash, format.dateTime),
              tone: summary.cash === null ? "muted" : undefined,
            },
            { id: "runway", label: "Runway", value: runway.headline, detail: runway.detail },
            {
              id: "free-capital",
              label: "Free capital, next 30 days",
              value: money(freeCapital.free_capital_minor),
              detail:
                freeCapital.free_capital_minor === null
                  ? "Needs a cash balance."
                  : `After ${money(freeCapital.reserved_minor)} reserved and ${money(freeCapital.committed.total_minor)} committed.`,
              tone: freeCapital.free_capital_minor !== null && freeCapital.free_capital_minor < 0 ? "danger" : undefined,
            },
            {
              id: "net-30d",
              label: "Net, last 30 days",
              value: money(summary.net_minor),
              detail: `${money(summary.net_revenue_minor)} net revenue, ${money(summary.outflow_minor)} spent`,
            },
            {
              id: "burn",
              label: "Monthly net burn",
              value: money(summary.burn.monthly_net_minor),
              detail: `Gross ${money(summary.burn.monthly_gross_minor)} a month, over the last 90 days`,
            },
          ]}
        />
      </section>

      <section aria-labelledby="forecast-heading" className="card">
        <div className="card-header card-header-wrap">
          <div>
            <h2 id="forecast-heading">Balance forecast</h2>
            <p>
              From today, {forecast.horizon_days} days: the {COMMITTED_LABEL.toLowerCase()} line counts planned items,
              subscription charges and ad budgets; the other adds the last 90 days&apos; run rate.
            </p>
          </div>
          <nav className="horizon" aria-label="Forecast horizon">
            {FORECAST_HORIZONS.map((days) => (
              <Link
                key={days}
                href={`?${new URLSearchParams({ ...props.query, horizon: String(days) }).toString()}`}
                aria-current={days === props.horizon ? "true" : undefined}
                scroll={false}
              >
                {days} days
              </Link>
            ))}
          </nav>
        </div>
        <div className="card-body">
          {hasBalances(points) ? (
            <div className="stack stack-fill">
              <ForecastChart
                points={points}
                currency={currency}
                caption={`Forecast balance over ${forecast.horizon_days} days in ${currency}`}
              />
              <div className="forecast-facts" data-testid="forecast-facts">
                <FigureList
                  figures={[
                    {
                      id: "forecast-end-committed",
                      label: `${COMMITTED_LABEL}, on the last day`,
                      value: money(forecast.ending_balance_committed_minor),
                    },
                    {
                      id: "forecast-end-run-rate",
                      label: `${RUN_RATE_LABEL}, on the last day`,
                      value: money(forecast.ending_balance_with_run_rate_minor),
                    },
                    {
                      id: "forecast-lowest",
                      label: `Lowest ${COMMITTED_LABEL.toLowerCase()} balance`,
                      value: money(forecast.lowest_balance?.amount_minor ?? null),
                      detail: forecast.lowest_balance
                        ? `On ${formatCalendarDay(forecast.lowest_balance.date, locale)}`
                        : undefined,
                      tone: forecast.lowest_balance && forecast.lowest_balance.amount_minor < 0 ? "danger" : undefined,
                    },
                  ]}
                />
              </div>
            </div>
          ) : (
            <EmptyState icon={<ListIcon />} title="No balance to forecast yet">
              The forecast starts from your cash. Record a balance under <a href="#record-cash">Record cash</a> below.
            </EmptyState>
          )}
        </div>
      </section>

      <div className="grid-2 grid-overview">
        <CardSection headingId="in-out-heading" title="Money in and out, last 30 days" description="By project.">
          {nothingMoved(projectRows) ? (
            <EmptyState icon={<ListIcon />} title="Nothing in the last 30 days">
              No revenue or costs yet. <Link href="/events">Record revenue and expenses</Link>,{" "}
              <Link href="/imports">import a statement</Link> or <Link href="/integrations">connect an integration</Link>.
            </EmptyState>
          ) : (
            <div className="card-body">
              <InOutChart
                testId="in-out-chart"
                caption={`Money in and out by project, last 30 days, in ${currency}`}
                rowHeader="Project"
                inLabel="In"
                outLabel="Out"
                currency={currency}
                rows={projectRows}
              />
            </div>
          )}
        </CardSection>

        <CommittedCostsCard
          items={freeCapital.items}
          totalMinor={freeCapital.committed.total_minor}
          baseCurrency={summary.base_currency}
          currency={currency}
        />
      </div>

      <AlertsCard alerts={props.figures.alerts} isPending={false} isError={false} limit={10} />
    </div>
  );
}
