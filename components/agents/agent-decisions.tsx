"use client";
// An agent's decisions of the last twelve months with their outcomes (GET /v1/decision-outcomes
// for this agent): what it expected against what the ledger showed, and the verdict in words
// and an icon. The server measures and stores outcomes; this only shows them.
import type { ReactNode } from "react";
import { addDays, localToday } from "@/lib/days";
import { formatMinor } from "@/lib/money";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TDecisionMetric, TDecisionOutcome } from "@/server/decisions/decision.schema";
import { scopeName, useScopes, type TScopes } from "../events/scopes";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { CardHeader } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { AlertIcon, BookmarkIcon, CheckIcon, HistoryIcon, TrendDownIcon, TrendUpIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";

const PAGE_SIZE = 20;

const METRICS: Record<TDecisionMetric, string> = {
  revenue: "Revenue",
  outflow: "Outflow",
  net: "Net",
  ad_spend: "Ad spend",
};

type TRow = TDecisionOutcome & { id: string };

/** An amount with its sign, "+€110.00" or "−€60.00". */
function signed(minor: number, currency: string): string {
  if (minor > 0) return `+${formatMinor(minor, currency)}`;
  if (minor < 0) return `−${formatMinor(-minor, currency)}`;
  return formatMinor(0, currency);
}

/** A day, never broken at its hyphens. */
function Day({ day }: { day: string }) {
  return (
    <span className="mono" style={{ whiteSpace: "nowrap" }}>
      {day}
    </span>
  );
}

/** The outcome in words, with an icon and a tone: verdict when measured, else the status. */
export function outcomeLabel(o: Pick<TDecisionOutcome, "status" | "verdict">): { text: string; tone: string; icon: ReactNode } {
  if (o.status === "pending") return { text: "Measuring", tone: "pill-warning", icon: <HistoryIcon /> };
  if (o.status === "inconclusive") return { text: "Inconclusive", tone: "pill-neutral", icon: <AlertIcon /> };
  switch (o.verdict) {
    case "as_expected":
      return { text: "As expected", tone: "pill-success", icon: <CheckIcon /> };
    case "better":
      return { text: "Better than expected", tone: "pill-success", icon: <TrendUpIcon /> };
    case "worse":
      return { text: "Worse than expected", tone: "pill-danger", icon: <TrendDownIcon /> };
    default:
      return { text: "Measured", tone: "pill-neutral", icon: <CheckIcon /> };
  }
}

function OutcomeCell({ o }: { o: TDecisionOutcome }) {
  const label = outcomeLabel(o);
  return (
    <>
      <span className={`pill verdict ${label.tone}`}>
        {label.icon}
        {label.text}
      </span>
      <span className="cell-sub">
        {o.status === "pending" ? (
          <>Window ends {o.window.to}</>
        ) : o.status === "inconclusive" ? (
          <>Not enough data: {METRICS[o.metric].toLowerCase()} coverage is missing</>
        ) : o.verdict === null ? (
          <>No expectation was given</>
        ) : (
          <>
            Measured <DateTime iso={o.measured_at!} />
          </>
        )}
      </span>
    </>
  );
}

function columns(scopes: TScopes): TColumn<TRow>[] {
  return [
    {
      header: "Decision",
      cell: (o) => (
        <>
          <span className="cell-strong">{o.title}</span>
          <span className="cell-sub">
            <Day day={o.occurred_on} /> · {scopeName(scopes, o)}
          </span>
        </>
      ),
    },
    {
      header: "Expected change",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (o) =>
        o.expected_delta_minor === null ? (
          <span className="muted">None</span>
        ) : (
          <span style={{ whiteSpace: "nowrap" }}>{signed(o.expected_delta_minor, o.base_currency)}</span>
        ),
    },
    {
      header: "Actual change",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (o) => (
        <>
          <span style={{ whiteSpace: "nowrap" }}>{signed(o.delta_minor, o.base_currency)}</span>
          <span className="cell-sub">
            {o.status === "pending" ? "So far: " : null}
            <span style={{ whiteSpace: "nowrap" }}>
              {formatMinor(o.baseline_minor, o.base_currency)} → {formatMinor(o.actual_minor, o.base_currency)}
            </span>
          </span>
        </>
      ),
    },
    {
      header: "Measured on",
      cellClassName: "cell-wide",
      cell: (o) => (
        <>
          <span>{METRICS[o.metric]}</span>
          <span className="cell-sub">
            <Day day={o.window.from} /> to <Day day={o.window.to} />
          </span>
        </>
      ),
    },
    { header: "Outcome", cellClassName: "cell-wide", cell: (o) => <OutcomeCell o={o} /> },
  ];
}

export function AgentDecisions({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopes = useScopes();
  // The longest period the list answers (366 days), ending tomorrow so that a decision of
  // "today" in an owner's time zone ahead of this browser's is in it too.
  const to = addDays(localToday(), 1);
  const input = { agent_id: agentId, from: addDays(to, -365), to, limit: PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.decisions.findOutcomes.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.decisions.findOutcomes.query({ ...input, cursor }, { signal }),
  });
  const rows: TRow[] = list.items.map((o) => ({ ...o, id: o.decision_id }));

  return (
    <section className="card" aria-labelledby="decisions-heading">
      <CardHeader
        headingId="decisions-heading"
        title="Decisions"
        description="What the agent decided in the last 12 months, and what the ledger showed afterwards against what it expected."
      >
        {rows.length > 0 ? (
          <span className="count">
            {rows.length}
            {list.hasNextPage ? "+" : ""} {rows.length === 1 ? "decision" : "decisions"}
          </span>
        ) : null}
      </CardHeader>
      {list.isError ? (
        <div className="card-body">
          <FormAlert message={formErrorOf(list.error, []).summary} />
        </div>
      ) : rows.length === 0 ? (
        <EmptyState icon={<BookmarkIcon />} title={list.isPending ? "Loading decisions…" : "No decisions yet"}>
          The agent records a decision with POST /v1/agent-decisions (its reason, the effect it expects on revenue, outflow, net
          or ad spend, and over how many days). Once that window has passed, its outcome shows here: the change the ledger shows
          against the change expected.
        </EmptyState>
      ) : (
        <DataTable columns={columns(scopes)} items={rows} stack label="Decisions, scrollable" />
      )}
      <LoadMore list={list} />
    </section>
  );
}
