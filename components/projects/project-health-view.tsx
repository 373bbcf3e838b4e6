"use client";
// The Projects tab's health section: a card per project with its status (an icon and words,
// never colour alone), score, revenue, costs, margin against the previous period, capacity
// use and the reasons in words; then the business-level amounts no project carries. Every
// figure is GET /v1/businesses/{id}/project-health's; this only lays them out.
import Link from "next/link";
import type { ReactNode } from "react";
import { formatMinor } from "@/lib/money";
import type { TProjectHealth } from "@/server/read-models/project-health.schema";
import { CoveragePill } from "../overview/coverage-pill";
import { formatCalendarDay, type TCoverageStatus } from "../overview/figures";
import { usePreferences } from "../panel/preferences";
import { EmptyState } from "../ui/empty-state";
import { HEALTH_PERIODS, type THealthPeriod } from "./health-period";
import { AlertIcon, CheckIcon, EyeIcon, FolderIcon, HelpIcon } from "../ui/icons";

type TRow = TProjectHealth["projects"][number];
type TStatus = NonNullable<TRow["status"]>;

const STATUS: Record<TStatus, { label: string; tone: string; icon: ReactNode }> = {
  healthy: { label: "Healthy", tone: "pill-success", icon: <CheckIcon /> },
  watch: { label: "Watch", tone: "pill-warning", icon: <EyeIcon /> },
  at_risk: { label: "At risk", tone: "pill-danger", icon: <AlertIcon /> },
  insufficient_data: { label: "Not enough data", tone: "pill-neutral", icon: <HelpIcon /> },
};

const HEALTH_STATUS_ORDER: TStatus[] = ["healthy", "watch", "at_risk", "insufficient_data"];
/** "2 healthy, 1 to watch, …": the summary line's words. */
const COUNT_WORDS: Record<TStatus, string> = {
  healthy: "healthy",
  watch: "to watch",
  at_risk: "at risk",
  insufficient_data: "without enough data",
};

export function HealthStatus({ status, score }: { status: TStatus; score: number | null }) {
  const words = STATUS[status];
  return (
    <span className={`pill pill-plain health-status ${words.tone}`} data-testid="health-status" data-status={status}>
      {words.icon}
      {words.label}
      {score === null ? null : <span className="health-score"> · score {score}</span>}
    </span>
  );
}

function percent(value: number | null, locale: string): string {
  if (value === null) return "—";
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(value);
}

function HealthCard({ row, currency, locale }: { row: TRow; currency: string; locale: string }) {
  const money = (minor: number) => formatMinor(minor, currency, locale);
  const isBusiness = row.project_id === null;
  const headingId = `health-${row.project_id ?? "business"}`;
  const costs = row.direct_costs_minor + row.allocated_costs_minor;
  const change = row.margin_change_minor;
  return (
    <article className="card health-card" aria-labelledby={headingId} data-testid="health-card">
      <div className="card-header card-header-wrap">
        <h3 id={headingId}>{isBusiness ? "Business-level, no project" : row.name}</h3>
        {row.status ? (
          <HealthStatus status={row.status} score={row.score} />
        ) : (
          <span className="pill pill-neutral pill-plain">No score</span>
        )}
      </div>
      <dl className="health-figures">
        <div>
          <dt>Revenue</dt>
          <dd data-testid="health-revenue">{money(row.revenue_minor)}</dd>
        </div>
        <div>
          <dt>Costs</dt>
          <dd data-testid="health-costs">{money(costs)}</dd>
          {row.allocated_costs_minor === 0 ? null : (
            <dd className="health-sub">{money(row.allocated_costs_minor)} of shared subscriptions</dd>
          )}
        </div>
        <div>
          <dt>Margin</dt>
          <dd data-testid="health-margin" className={row.margin_minor < 0 ? "health-negative" : undefined}>
            {money(row.margin_minor)}
          </dd>
          <dd className="health-sub">
            {row.margin_ratio === null ? "No revenue" : `${percent(row.margin_ratio, locale)} of revenue`}
          </dd>
        </div>
        <div>
          <dt>Against the previous period</dt>
          <dd data-testid="health-change">
            {change > 0 ? "+" : ""}
            {money(change)}
          </dd>
          <dd className="health-sub">Was {money(row.previous_margin_minor)}</dd>
        </div>
      </dl>
      {row.capacity.items.length === 0 ? null : (
        <div className="health-capacity">
          <h4>Capacity use</h4>
          <ul>
            {row.capacity.items.map((item) => (
              <li key={item.subscription_id}>
                <span>
                  {item.name}: {item.used} of {item.total} {item.unit} ({percent(item.utilization, locale)})
                </span>
                <span className="health-bar" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, (item.utilization ?? 0) * 100)}%` }} />
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="health-reasons">
        {isBusiness ? (
          <p>Revenue and costs recorded on the business without a project, after shared subscriptions are split.</p>
        ) : row.reasons.length === 0 ? (
          <p>Nothing to flag.</p>
        ) : (
          <ul aria-label={`Why ${row.name} is ${STATUS[row.status ?? "insufficient_data"].label.toLowerCase()}`}>
            {row.reasons.map((reason) => (
              <li key={reason.code} data-code={reason.code}>
                {reason.detail}
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}

export function ProjectHealthView(props: {
  health: TProjectHealth;
  coverage: { revenue: TCoverageStatus; expenses: TCoverageStatus };
  period: THealthPeriod;
}) {
  const { locale } = usePreferences();
  const { health } = props;
  const projects = health.projects.filter((row) => row.project_id !== null);
  const business = health.projects.find((row) => row.project_id === null);
  const counts = HEALTH_STATUS_ORDER.map((status) => ({
    status,
    count: projects.filter((row) => row.status === status).length,
  })).filter((entry) => entry.count > 0);

  return (
    <section className="card" aria-labelledby="health-heading">
      <div className="card-header card-header-wrap">
        <div>
          <h2 id="health-heading">Project health</h2>
          <p>
            {formatCalendarDay(health.from, locale)} to {formatCalendarDay(health.to, locale)}, in {health.currency}, compared
            with the {props.period} days before.
          </p>
        </div>
        <div className="cell-stack">
          {(["revenue", "expenses"] as const).map((domain) => (
            <span key={domain} className="health-coverage">
              <span aria-hidden="true">{domain === "revenue" ? "Revenue data" : "Expense data"}</span>
              <CoveragePill status={props.coverage[domain]} subject={`${domain === "revenue" ? "Revenue" : "Expense"} data`} />
            </span>
          ))}
          <nav className="horizon" aria-label="Health period">
            {HEALTH_PERIODS.map((days) => (
              <Link key={days} href={`?days=${days}`} aria-current={days === props.period ? "true" : undefined} scroll={false}>
                Last {days} days
              </Link>
            ))}
          </nav>
        </div>
      </div>
      {projects.length === 0 ? (
        <EmptyState icon={<FolderIcon />} title="No projects to score yet">
          Create a project below, then record its revenue and costs (or allocate a shared subscription to it) to see its margin,
          capacity use and health here.
        </EmptyState>
      ) : (
        <div className="card-body stack">
          <p className="health-counts" data-testid="health-counts">
            {counts.map((entry) => `${entry.count} ${COUNT_WORDS[entry.status]}`).join(", ")}. Scores start at 100 and lose points
            for a negative margin, a margin drop of more than 20%, nearly full or underused capacity, and incomplete revenue or
            expense data.
          </p>
          <div className="health-grid">
            {projects.map((row) => (
              <HealthCard key={row.project_id} row={row} currency={health.currency} locale={locale} />
            ))}
            {business ? <HealthCard row={business} currency={health.currency} locale={locale} /> : null}
          </div>
        </div>
      )}
    </section>
  );
}
