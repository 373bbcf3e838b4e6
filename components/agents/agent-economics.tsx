"use client";
// An agent's economics on its page (GET /v1/agents/{id}/economics): what its executed writes
// committed, what its decisions produced by their reviews and the return on it, its ad budget
// changes, the events attributed to it and its writes by outcome, over this month or the last
// 30 or 90 days. The server computes every figure; this only shows them.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { addDays, todayIn } from "@/lib/days";
import { formatMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorOf } from "@/lib/trpc/errors";
import type { TEconomicsFigures } from "@/server/agent-economics/agent-economics.schema";
import { FigureList, type TFigure } from "../overview/figure-list";
import { usePreferences } from "../panel/preferences";
import { CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { WalletIcon } from "../ui/icons";
import { Segmented } from "../ui/segmented";

export type TEconomicsPeriod = "month" | "30" | "90";

const PERIODS: ReadonlyArray<{ value: TEconomicsPeriod; label: string }> = [
  { value: "month", label: "This month" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
];

/** The period's from/to in the owner's time zone: this month so far, or the last 30 or 90 days. */
export function economicsPeriod(period: TEconomicsPeriod, timezone: string): { from: string; to: string } {
  const to = todayIn(timezone);
  if (period === "month") return { from: `${to.slice(0, 8)}01`, to };
  return { from: addDays(to, -(Number(period) - 1)), to };
}

/** Minor units with their sign: "+€110.00", "−€60.00", "€0.00". */
export function signedMinor(minor: number, currency: string, locale?: string): string {
  if (minor > 0) return `+${formatMinor(minor, currency, locale)}`;
  if (minor < 0) return `−${formatMinor(-minor, currency, locale)}`;
  return formatMinor(0, currency, locale);
}

/** Nothing happened: no write, denial, change, attributed event or decision. */
export function isQuiet(f: TEconomicsFigures): boolean {
  const w = f.writes;
  return (
    w.executed + w.pending + w.rejected + w.denied === 0 &&
    f.ad_budget.changes === 0 &&
    f.attributed.in_minor === 0 &&
    f.attributed.out_minor === 0 &&
    f.decisions.count === 0
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function figuresOf(f: TEconomicsFigures, currency: string, locale: string): TFigure[] {
  const money = (minor: number) => formatMinor(minor, currency, locale);
  const d = f.decisions;
  const w = f.writes;
  const b = f.ad_budget;
  return [
    {
      id: "committed",
      label: "Spend approved",
      value: money(f.committed_minor),
      detail: `${plural(w.executed, "write", "writes")} executed: ${w.auto_approved} within limits, ${w.approved} approved by you`,
    },
    {
      id: "result",
      label: "Result of decisions",
      value: signedMinor(d.value_minor, currency, locale),
      detail:
        d.count === 0
          ? "No decisions"
          : `${d.better} better, ${d.as_expected} as expected, ${d.worse} worse · ${d.pending} measuring` +
            (d.inconclusive > 0 ? `, ${d.inconclusive} inconclusive` : ""),
      tone: d.value_minor < 0 ? "danger" : undefined,
    },
    {
      id: "roi",
      label: "Return",
      value: f.roi === null ? "—" : `${(f.roi * 100).toFixed(2).replace(/\.?0+$/, "")} %`,
      detail: f.roi === null ? "Nothing spent yet" : "(result − spend) ÷ spend",
      tone: f.roi === null ? "muted" : f.roi < 0 ? "danger" : undefined,
    },
    {
      id: "ad-budget",
      label: "Daily ad budget",
      value: `${signedMinor(b.daily_increase_minor, currency, locale)}/day`,
      detail:
        b.changes === 0
          ? "No changes"
          : `${plural(b.changes, "change", "changes")}: ${b.applied} applied, ${b.planned} planned, ${b.failed} failed`,
    },
    {
      id: "attributed",
      label: "Its events, net",
      value: signedMinor(f.attributed.in_minor - f.attributed.out_minor, currency, locale),
      detail: `In ${money(f.attributed.in_minor)} · out ${money(f.attributed.out_minor)}`,
    },
    {
      id: "held",
      label: "Held for your approval",
      value: String(w.approved + w.rejected + w.pending),
      detail:
        `${w.approved} approved, ${w.rejected} rejected, ${w.pending} waiting` +
        (w.denied > 0 ? ` · ${plural(w.denied, "call", "calls")} refused` : ""),
      tone: w.denied > 0 ? "danger" : undefined,
    },
  ];
}

export function AgentEconomics({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const { locale, timezone } = usePreferences();
  const [period, setPeriod] = useState<TEconomicsPeriod>("month");
  const query = useQuery(trpc.agentEconomics.get.queryOptions({ id: agentId, ...economicsPeriod(period, timezone) }));
  const data = query.data?.data;

  return (
    <section className="card" aria-labelledby="economics-heading">
      <CardHeader
        headingId="economics-heading"
        title="Economics"
        description="What the agent's actions committed and what they produced, from its approvals, ad budget changes, events and decisions."
        wrap
      >
        <Segmented label="Economics period" value={period} options={PERIODS} onChange={setPeriod} />
      </CardHeader>
      {query.isError ? (
        <div className="card-body">
          <FormAlert message={formErrorOf(query.error, []).summary} />
        </div>
      ) : !data ? (
        <div className="card-body">
          <p className="muted">Loading economics…</p>
        </div>
      ) : isQuiet(data) ? (
        <EmptyState icon={<WalletIcon />} title="No activity in this period">
          Figures appear once the agent acts: ad budget changes it makes (POST /v1/ad-budget-changes) and the approvals behind
          them, decisions it records (POST /v1/agent-decisions) and events attributed to it. To let it act within limits, give it
          a grant at the “execute” level under Name and grants.
        </EmptyState>
      ) : (
        <>
          <FigureList figures={figuresOf(data, data.currency, locale)} />
          <div className="card-body card-body-tight">
            <p className="hint">
              {data.from} to {data.to}, in {data.currency}. Spend is the amount of its executed writes; the result of its
              decisions is the change the ledger showed over each window (less spending counts as a gain).
            </p>
          </div>
        </>
      )}
    </section>
  );
}

// --- the Agents list's "This month" column ------------------------------------------------

type TMonthEconomics = { currency: string; byAgent: Map<string, TEconomicsFigures> } | null;

/** Every agent's economics this month, from ONE call (GET /v1/agents/economics), by agent id; null while loading. */
export function useMonthEconomics(): { month: TMonthEconomics; failed: boolean } {
  const trpc = useTRPC();
  const { timezone } = usePreferences();
  const query = useQuery(trpc.agentEconomics.find.queryOptions(economicsPeriod("month", timezone)));
  const data = query.data?.data;
  return {
    month: data ? { currency: data.currency, byAgent: new Map(data.agents.map((agent) => [agent.agent_id, agent])) } : null,
    failed: query.isError,
  };
}

/** One agent's spend approved and result of decisions this month, or why there is none. */
export function MonthEconomicsCell({ agentId, month, failed }: { agentId: string; month: TMonthEconomics; failed: boolean }) {
  const { locale } = usePreferences();
  if (failed) return <span className="muted">Not available</span>;
  if (!month) return <span className="muted">…</span>;
  // An agent created after the figures were loaded is not among them: it has done nothing yet.
  const figures = month.byAgent.get(agentId);
  if (!figures || isQuiet(figures)) return <span className="muted">No activity</span>;
  return (
    <>
      <span style={{ whiteSpace: "nowrap" }}>Spent {formatMinor(figures.committed_minor, month.currency, locale)}</span>
      <span className="cell-sub" style={{ whiteSpace: "nowrap" }}>
        Result {signedMinor(figures.decisions.value_minor, month.currency, locale)}
      </span>
    </>
  );
}
