"use client";
// The latest alerts: what integrations signalled (a failed payout, a paused campaign, …) and
// what the service noticed, most recent first, with how serious each one is.
import { formatMinor } from "@/lib/money";
import type { TAlert } from "@/server/integrations/integration.schema";
import { usePreferences } from "../panel/preferences";
import { CardHeader } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { AlertIcon } from "../ui/icons";
import { RelativeTime } from "./relative-time";

const SEVERITY_TONES: Record<TAlert["severity"], string> = {
  critical: "pill-danger",
  warning: "pill-warning",
  info: "pill-accent",
};

export function SeverityPill({ severity }: { severity: TAlert["severity"] }) {
  return <span className={`pill ${SEVERITY_TONES[severity]} pill-severity`}>{severity}</span>;
}

export function AlertsCard(props: { alerts: TAlert[]; isPending: boolean; isError: boolean; limit: number }) {
  const { locale } = usePreferences();
  const count = props.alerts.length;
  return (
    <section className="card" aria-labelledby="alerts-heading">
      <CardHeader headingId="alerts-heading" title="Recent alerts" description="Signals from your integrations, newest first.">
        {count > 0 ? (
          <span className="count">
            {count === props.limit ? `latest ${count}` : `${count} ${count === 1 ? "alert" : "alerts"}`}
          </span>
        ) : null}
      </CardHeader>
      {props.isError ? (
        <div className="card-body">
          <FormAlert message="The alerts could not be loaded. Reload the page to try again." />
        </div>
      ) : count === 0 ? (
        <EmptyState icon={<AlertIcon />} title={props.isPending ? "Loading alerts…" : "No alerts"}>
          {props.isPending
            ? "Looking for recent signals."
            : "Nothing needs your attention. Failed payouts, disputes, paused campaigns and similar signals appear here."}
        </EmptyState>
      ) : (
        <DataTable
          scroll
          compact
          items={props.alerts}
          rowProps={(alert) => ({ "data-severity": alert.severity })}
          columns={[
            { header: "Severity", cell: (alert) => <SeverityPill severity={alert.severity} /> },
            {
              header: "Message",
              cell: (alert) => (
                <>
                  <span className="cell-strong">{alert.message}</span>
                  {alert.amount_minor !== null && alert.currency ? (
                    <span className="cell-sub mono">{formatMinor(alert.amount_minor, alert.currency, locale)}</span>
                  ) : null}
                </>
              ),
            },
            { header: "Code", cellClassName: "mono muted", cell: (alert) => alert.code },
            {
              header: "When",
              headerClassName: "cell-right",
              cellClassName: "cell-date cell-right",
              cell: (alert) => <RelativeTime iso={alert.occurred_at} />,
            },
          ]}
        />
      )}
    </section>
  );
}
