"use client";
// A business's SaaS tab: MRR and ARR, net new MRR, customers and ARPA; the MRR movement of each
// month (chart and table); churn and net revenue retention with what they mean; the billing
// signals; the latest movements. Every figure is the API's (GET /v1/businesses/{id}/saas-metrics);
// this only lays them out.
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import type { TSaasMetrics } from "@/server/read-models/saas-metrics.schema";
import type { TCoverageStatus } from "@/server/read-models/read-model.schema";
import { usePreferences } from "../panel/preferences";
import { CoveragePill } from "../overview/coverage-pill";
import { FigureList } from "../overview/figure-list";
import { formatCalendarDay } from "../overview/figures";
import { CardSection } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { RepeatIcon } from "../ui/icons";
import { MrrMovementChart } from "./mrr-movement-chart";
import { formatRatio, MOVEMENT_LABELS, noRateWords, RATE_WORDS } from "./saas-words";

type TMovement = TSaasMetrics["movements"][number];

/** Nothing to show: no MRR at either end and no movement in the period. */
export function hasNoSaasData(metrics: TSaasMetrics): boolean {
  return metrics.movements_total === 0 && metrics.mrr_start_minor === 0 && metrics.mrr_end_minor === 0;
}

export function SaasView(props: { metrics: TSaasMetrics; coverage: { overall: TCoverageStatus; billing: TCoverageStatus } }) {
  const { locale } = usePreferences();
  const m = props.metrics;
  const currency = m.currency;
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const day = (d: string) => formatCalendarDay(d, locale);
  const moves = m.movements_summary;

  if (hasNoSaasData(m)) {
    return (
      <section aria-labelledby="saas-empty-heading" className="card">
        <div className="card-header">
          <h2 id="saas-empty-heading">Recurring revenue</h2>
        </div>
        <EmptyState icon={<RepeatIcon />} title="No subscription data yet">
          SaaS metrics come from subscription changes. <Link href="/integrations">Connect a billing integration</Link>, or send{" "}
          <code>subscription_change</code> events from your own billing through a generic webhook (also under Integrations).
          Nothing moved between {day(m.from)} and {day(m.to)}.
        </EmptyState>
      </section>
    );
  }

  const rateFigure = (rate: keyof typeof RATE_WORDS, id: string) => {
    const value = m.rates[rate];
    return {
      id,
      label: RATE_WORDS[rate].label,
      value: formatRatio(value, locale),
      detail: value === null ? noRateWords(rate) : RATE_WORDS[rate].definition,
      tone: value === null ? ("muted" as const) : undefined,
    };
  };

  return (
    <div className="stack stack-fill">
      {moves.consistent ? null : (
        <FormAlert
          message={
            `The movements (net ${money(moves.net_new_minor)}) do not add up to the change in MRR ` +
            `(${money(m.mrr_end_minor - m.mrr_start_minor)}): some subscription changes state an MRR that their amounts do not explain.`
          }
        />
      )}

      <section aria-labelledby="mrr-heading" className="card">
        <div className="card-header card-header-wrap">
          <div>
            <h2 id="mrr-heading">Recurring revenue</h2>
            <p>
              In {currency}, from {day(m.from)} to {day(m.to)}.
            </p>
          </div>
          <span className="cell-stack">
            <CoveragePill status={props.coverage.billing} subject="Billing coverage" />
          </span>
        </div>
        <FigureList
          figures={[
            {
              id: "mrr",
              label: "MRR",
              value: money(m.mrr_end_minor),
              detail: `${money(m.mrr_start_minor)} the day before ${day(m.from)}`,
            },
            {
              id: "arr",
              label: "ARR",
              value: money(m.arr_minor),
              detail: "12 × MRR, with what yearly prices leave over",
            },
            {
              id: "net-new",
              label: "Net new MRR",
              value: money(moves.net_new_minor),
              detail: "New, expansion and reactivation, less contraction and churn",
              tone: moves.net_new_minor < 0 ? "danger" : undefined,
            },
            {
              id: "customers",
              label: "Active customers",
              value: String(m.customers.active_end),
              detail: `${m.customers.new} new, ${m.customers.churned} churned; ${m.customers.active_start} at the start`,
            },
            {
              id: "arpa",
              label: "ARPA",
              value: money(m.arpa_minor),
              detail: m.arpa_minor === null ? "No active customers." : "Average MRR per active customer",
              tone: m.arpa_minor === null ? "muted" : undefined,
            },
          ]}
        />
      </section>

      <CardSection
        headingId="movement-heading"
        title="MRR movement by month"
        description="What each month added (above the line) and lost (below it)."
      >
        <div className="card-body">
          <MrrMovementChart months={m.by_month} currency={currency} caption={`MRR movement by month in ${currency}`} />
        </div>
        <FigureList
          figures={(["new", "expansion", "reactivation", "contraction", "churned"] as const).map((kind) => ({
            id: `move-${kind}`,
            label: MOVEMENT_LABELS[kind],
            value: money(moves[`${kind}_minor`]),
          }))}
        />
      </CardSection>

      <CardSection
        headingId="churn-heading"
        title="Churn and retention"
        description={`Customers and MRR at the start (${day(m.from)}) compared with the end (${day(m.to)}).`}
      >
        <FigureList
          figures={[
            rateFigure("customer_churn_rate", "customer-churn"),
            rateFigure("gross_mrr_churn_rate", "gross-mrr-churn"),
            rateFigure("net_mrr_retention", "net-retention"),
            {
              id: "signals",
              label: "Billing signals",
              value: String(m.signals.payment_failed + m.signals.subscription_past_due + m.signals.subscription_churned),
              detail:
                `${m.signals.payment_failed} failed payment${m.signals.payment_failed === 1 ? "" : "s"}, ` +
                `${m.signals.subscription_past_due} past due, ${m.signals.subscription_churned} cancelled`,
            },
          ]}
        />
      </CardSection>

      <CardSection
        headingId="movements-heading"
        title="Latest movements"
        description={
          m.movements_total > m.movements.length
            ? `The latest ${m.movements.length} of ${m.movements_total}, each in its own currency. All are under Events (type Subscription change).`
            : `${m.movements_total} in the period, each in its own currency.`
        }
      >
        {m.movements.length === 0 ? (
          <EmptyState icon={<RepeatIcon />} title="No movements in this period">
            MRR stayed as it was. Pick a longer period above to see earlier changes.
          </EmptyState>
        ) : (
          <DataTable<TMovement & { id: string }>
            label="Latest movements (scrolls sideways)"
            stack
            compact
            items={m.movements.map((movement) => ({ ...movement, id: movement.event_id }))}
            rowProps={(movement) => ({ "data-change": movement.change })}
            columns={[
              {
                header: "Date",
                cellClassName: "cell-date",
                cell: (movement) => <time dateTime={movement.occurred_on}>{day(movement.occurred_on)}</time>,
              },
              { header: "Change", cell: (movement) => MOVEMENT_LABELS[movement.change] },
              {
                header: "Customer",
                cellClassName: "mono",
                cell: (movement) => movement.customer_id ?? <span className="muted">—</span>,
              },
              {
                header: "Plan",
                cell: (movement) => movement.plan ?? <span className="muted">—</span>,
              },
              {
                header: "MRR change",
                headerClassName: "cell-right",
                cellClassName: "cell-right mono",
                cell: (movement) => formatMinor(movement.mrr_delta_minor, movement.currency, locale),
              },
              {
                header: "MRR after",
                headerClassName: "cell-right",
                cellClassName: "cell-right mono",
                cell: (movement) =>
                  movement.mrr_minor === null ? (
                    <span className="muted">—</span>
                  ) : (
                    formatMinor(movement.mrr_minor, movement.currency, locale)
                  ),
              },
            ]}
          />
        )}
      </CardSection>
    </div>
  );
}
