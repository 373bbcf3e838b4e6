"use client";
// The approvals inbox: agents' writes held for the owner's consent and agents' requests
// (a permission, an integration, data). Pending first by default; approve (with an optional
// note), reject, or dismiss a request. Decided items show their status, note and what approving
// did, in words. Things are named (agent, business, ad account, campaign), never by id or code
// (approval-words.ts).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { formatMinor } from "@/lib/money";
import { approvalActionLabel } from "@/lib/approval-words";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { formErrorOf } from "@/lib/trpc/errors";
import type { TAgent } from "@/server/agents/agent.schema";
import type { TApproval as TApprovalRecord } from "@/server/approvals/approval.schema";
import { levelLabel, SCOPE_LABELS } from "../agents/grants";
import { APPROVALS_PAGE_SIZE } from "../panel/page-size";
import { formatCalendarDay } from "../overview/figures";
import { DateTime, usePreferences } from "../panel/preferences";
import { useCursorList, type TListPage } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { InboxIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import { Segmented } from "../ui/segmented";
import { StatusPill } from "../ui/status-pill";
import {
  adAccountText,
  approvalKindLabel,
  effectiveText,
  NO_NAMES,
  outcomeText,
  resourceText,
  type TApprovalNames,
} from "./approval-words";

type TStatusFilter = "pending" | "all";
type TKindFilter = "all" | "write" | "request";
type TAgentPage = TListPage<TAgent>;
/** An approval as the client receives it (`result` may be absent on the wire). */
type TApproval = Omit<TApprovalRecord, "result"> & { result?: unknown };

const STATUS_FILTERS = [
  { value: "pending", label: "Pending" },
  { value: "all", label: "All" },
] as const;
const KIND_FILTERS = [
  { value: "all", label: "All kinds" },
  { value: "write", label: "Changes" },
  { value: "request", label: "Requests" },
] as const;

/** An agent's ad budget change (POST /v1/ad-budget-changes), shown as a diff of the campaign's daily budget. */
const AD_BUDGET_CHANGE_ACTION = "ad_budget_change.create";

const TRIGGER_LABELS: Record<TApproval["trigger"], string> = {
  level_recommend: "Its grant only lets it recommend",
  over_limit: "Over its spending limit",
  request: "The agent asked",
  within_limits: "Within its limits (recorded only)",
  owner: "Your own change (recorded only)",
};

const DECISION_VERBS: Record<string, string> = { approved: "Approved", rejected: "Rejected", dismissed: "Dismissed" };

export function ApprovalsView(props: { initialPage: TListPage<TApproval>; agents: TAgentPage; names?: TApprovalNames }) {
  const names = props.names ?? NO_NAMES;
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<TStatusFilter>("pending");
  const [kind, setKind] = useState<TKindFilter>("all");
  const [notice, setNotice] = useState<string | null>(null);

  const input = {
    limit: APPROVALS_PAGE_SIZE,
    ...(status === "pending" ? { status: "pending" as const } : {}),
    ...(kind === "all" ? {} : { kind }),
  };
  const list = useCursorList({
    queryKey: trpc.approvals.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.approvals.find.query({ ...input, cursor }, { signal }),
    initialPage: status === "pending" && kind === "all" ? props.initialPage : null,
  });
  const agents = useQuery({ ...trpc.agents.find.queryOptions({ limit: 200 }), initialData: props.agents });
  const agentsById = new Map(agents.data.data.map((agent) => [agent.id, agent]));

  async function decided(message: string) {
    setNotice(message);
    // Deciding resolves the approval's notification on the server: the bell and the inbox refresh too.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.approvals.find.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.notifications.find.pathKey() }),
    ]);
  }

  const items = list.items;
  const emptyTitle = status === "pending" ? "Nothing waits for you" : "No approvals yet";
  const emptyText =
    status === "pending"
      ? "When an agent asks for something, or wants to make a change its grant does not allow on its own, it appears here."
      : "Agents' requests and held writes appear here, with your decisions.";

  return (
    <section className="card" aria-labelledby="approvals-heading">
      <CardHeader headingId="approvals-heading" title={status === "pending" ? "Waiting for you" : "All approvals"} wrap>
        <div className="toolbar">
          <Segmented
            label="Status"
            value={status}
            options={STATUS_FILTERS}
            onChange={(value) => {
              setStatus(value);
              setNotice(null);
            }}
          />
          <Segmented
            label="Kind"
            value={kind}
            options={KIND_FILTERS}
            onChange={(value) => {
              setKind(value);
              setNotice(null);
            }}
          />
        </div>
      </CardHeader>
      {notice ? (
        <div className="card-body card-body-tight">
          <p className="notice" role="status">
            {notice}
          </p>
        </div>
      ) : null}
      {list.isPending ? (
        <div className="card-body muted">Loading…</div>
      ) : list.isError && items.length === 0 ? (
        <div className="card-body">
          <FormAlert message="The approvals could not be loaded. Try again." />
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={<InboxIcon />} title={emptyTitle}>
          {emptyText}
        </EmptyState>
      ) : (
        <ul className="approval-list">
          {items.map((approval) => (
            <li key={approval.id}>
              <ApprovalItem
                approval={approval}
                agent={approval.agent_id ? agentsById.get(approval.agent_id) : undefined}
                names={names}
                onDecided={decided}
              />
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </section>
  );
}

function ApprovalItem(props: {
  approval: TApproval;
  agent: TAgent | undefined;
  names: TApprovalNames;
  onDecided: (message: string) => Promise<void>;
}) {
  const { approval, agent, names } = props;
  const trpc = useTRPC();
  const { locale } = usePreferences();
  const noteId = useId();
  const titleId = useId();
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const pending = approval.status === "pending";
  const title = approvalActionLabel(approval.action);

  const options = (verb: string) => ({
    onSuccess: () => props.onDecided(`${verb}: ${title}${agent ? ` (${agent.name})` : ""}.`),
    onError: (cause: unknown) => setError(formErrorOf(cause, []).summary),
  });
  const approve = useMutation(trpc.approvals.approve.mutationOptions(options("Approved")));
  const reject = useMutation(trpc.approvals.reject.mutationOptions(options("Rejected")));
  const dismiss = useMutation(trpc.approvals.dismiss.mutationOptions(options("Dismissed")));
  const busy = approve.isPending || reject.isPending || dismiss.isPending;
  const decision = () => {
    setError(null);
    const text = note.trim();
    return { id: approval.id, ...(text ? { decision_note: text } : {}) };
  };

  return (
    <article className="approval" aria-labelledby={titleId} data-status={approval.status}>
      <header className="approval-header">
        <div className="approval-title">
          <h3 id={titleId}>{title}</h3>
          <span className="pill pill-neutral">{approvalKindLabel(approval.kind)}</span>
          <StatusPill status={approval.status} />
        </div>
        <span className="cell-date muted">
          <DateTime iso={approval.created_at} withTime />
        </span>
      </header>

      <dl className="approval-facts">
        <div>
          <dt>Agent</dt>
          <dd>
            {approval.agent_id ? (
              <Link href={`/agents/${approval.agent_id}`}>{agent?.name ?? `Agent ${approval.agent_id.slice(0, 8)}`}</Link>
            ) : (
              <span className="muted">You</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Trigger</dt>
          <dd>{TRIGGER_LABELS[approval.trigger] ?? approval.trigger}</dd>
        </div>
        {/* A pending ad budget change shows what it would count now, in its diff, instead. */}
        {approval.amount_minor !== null && approval.currency && !approval.ad_budget_effect ? (
          <div>
            <dt>Amount</dt>
            <dd className="amount">{formatMinor(approval.amount_minor, approval.currency, locale)}</dd>
          </div>
        ) : null}
      </dl>

      {approval.reason ? (
        <blockquote className="approval-reason">
          <span className="visually-hidden">Reason: </span>“{approval.reason}”
        </blockquote>
      ) : null}

      {approval.action === AD_BUDGET_CHANGE_ACTION ? (
        <AdBudgetChangeDiff approval={approval} agent={agent} names={names} />
      ) : (
        <Params approval={approval} names={names} />
      )}

      {pending ? (
        <div className="approval-decide">
          <FormAlert message={error} />
          <label className="label" htmlFor={noteId}>
            Note <span className="muted">(optional, kept with your decision)</span>
          </label>
          <textarea
            id={noteId}
            className="input textarea"
            rows={2}
            maxLength={2000}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            placeholder={approval.kind === "request" ? "e.g. Uploaded to the shared folder" : "e.g. Fine this once"}
          />
          <div className="form-actions">
            <ActionButton
              look="button-primary"
              pending={approve.isPending}
              disabled={busy}
              onClick={() => approve.mutate(decision())}
            >
              Approve
            </ActionButton>
            <ActionButton
              look="button-danger-outline"
              pending={reject.isPending}
              disabled={busy}
              onClick={() => reject.mutate(decision())}
            >
              Reject
            </ActionButton>
            {approval.kind === "request" ? (
              <ActionButton
                look="button-secondary"
                pending={dismiss.isPending}
                disabled={busy}
                onClick={() => dismiss.mutate(decision())}
              >
                Dismiss
              </ActionButton>
            ) : null}
          </div>
        </div>
      ) : approval.status === "auto_approved" ? null : (
        <div className="approval-outcome">
          <p>
            <strong>{DECISION_VERBS[approval.status] ?? approval.status}</strong>
            {approval.decided_at ? (
              <>
                {" "}
                <DateTime iso={approval.decided_at} withTime />
              </>
            ) : null}
          </p>
          {approval.decision_note ? (
            <p>
              <span className="muted">Note:</span> {approval.decision_note}
            </p>
          ) : null}
          {approval.result !== null && approval.result !== undefined ? (
            <p>
              <span className="muted">What it did:</span> {outcomeText(approval.result, locale, approval.currency)}
            </p>
          ) : null}
        </div>
      )}
    </article>
  );
}

type TBudgetParams = {
  integration_id?: string;
  campaign_id?: string;
  ad_set_id?: string;
  ad_group_id?: string;
  previous_daily_budget_minor?: number;
  new_daily_budget_minor?: number;
  currency?: string;
  effective_on?: string;
  note?: string;
};

/** The change an approved ad budget change wrote (its approval's result data), when it is one. */
type TWrittenChange = { previous_daily_budget_minor: number | null; counted_daily_minor: number; effective_on: string };

function writtenChange(result: unknown): TWrittenChange | null {
  if (!result || typeof result !== "object" || !("data" in result)) return null;
  const data = (result as { data: unknown }).data;
  return data && typeof data === "object" && "counted_daily_minor" in data ? (data as TWrittenChange) : null;
}

/**
 * An ad budget change as a diff: the campaign, its daily budget as the service knows it → the
 * new one, the previous budget the agent claimed when it differs, what it counts against the
 * agent's limit and what it commits in the forecast (a pending one: as if approved now, from the
 * approval's ad_budget_effect; an approved one: as it was counted), when, the owner-facing note,
 * and (held over a limit) the agent's ads limits it would pass.
 */
function AdBudgetChangeDiff(props: { approval: TApproval; agent: TAgent | undefined; names: TApprovalNames }) {
  const { approval, agent, names } = props;
  const { locale } = usePreferences();
  const params = approval.params as TBudgetParams;
  const effect = approval.ad_budget_effect;
  const written = writtenChange(approval.result);
  const currency = effect?.currency ?? params.currency ?? "";
  const money = (minor: number | null | undefined) =>
    typeof minor === "number" && currency ? formatMinor(minor, currency, locale) : "unknown";
  // What the service knows of the campaign's budget: now (pending), or when the change ran.
  const known = effect ? effect.known_previous_daily_budget_minor : written ? written.previous_daily_budget_minor : undefined;
  const counted = effect?.counted_daily_minor ?? written?.counted_daily_minor;
  const claimed = params.previous_daily_budget_minor;
  const limits =
    approval.trigger === "over_limit"
      ? (agent?.grants ?? []).filter((g) => g.scope === "ads" && (g.daily_limit_minor !== null || g.monthly_limit_minor !== null))
      : [];
  return (
    <dl className="approval-params" aria-label="Budget change">
      {adAccountText(params.integration_id, names) ? (
        <div>
          <dt>Ad account</dt>
          <dd>{adAccountText(params.integration_id, names)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Campaign</dt>
        <dd className="mono">
          {params.campaign_id ?? "?"}
          {params.ad_set_id ? ` · ad set ${params.ad_set_id}` : ""}
          {params.ad_group_id ? ` · ad group ${params.ad_group_id}` : ""}
        </dd>
      </div>
      <div>
        <dt>Daily budget</dt>
        <dd className="amount">
          {known === undefined ? (
            <del>{money(claimed)}</del>
          ) : known === null ? (
            <span className="muted">Not known</span>
          ) : (
            <del>{money(known)}</del>
          )}{" "}
          <span aria-hidden="true">→</span>
          <span className="visually-hidden"> becomes </span> <ins>{money(params.new_daily_budget_minor)}</ins>
        </dd>
      </div>
      {known !== undefined && claimed !== undefined && claimed !== known ? (
        <div>
          <dt>The agent said it was</dt>
          <dd>
            <span className="amount">{money(claimed)}</span>{" "}
            <span className="muted">
              {known === null ? "(no budget is known yet: the whole new one counts)" : "(not counted)"}
            </span>
          </dd>
        </div>
      ) : null}
      {counted !== undefined ? (
        <div>
          <dt>{effect ? "Would count against its limit" : "Counted against its limit"}</dt>
          <dd className="amount">{money(counted)} a day</dd>
        </div>
      ) : null}
      {effect ? (
        <div>
          <dt>In the forecast</dt>
          <dd>
            {money(effect.new_daily_budget_minor)} a day from {formatCalendarDay(effect.effective_on, locale)}:{" "}
            <span className="amount">{money(effect.forecast.committed_minor)}</span> over{" "}
            {effect.forecast.days === 30 ? "the next 30 days" : `${effect.forecast.days} of the next 30 days`}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Effective</dt>
        <dd>
          {effectiveText({ effective_on: params.effective_on, status: approval.status, decided_at: approval.decided_at }, (day) =>
            formatCalendarDay(day, locale),
          )}
        </dd>
      </div>
      {params.note ? (
        <div>
          <dt>Note</dt>
          <dd>{params.note}</dd>
        </div>
      ) : null}
      {limits.map((grant) => (
        <div key={`${grant.resource}-${grant.daily_limit_minor}-${grant.monthly_limit_minor}`}>
          <dt>Limit it hit</dt>
          <dd>
            {[
              grant.daily_limit_minor !== null
                ? `${formatMinor(grant.daily_limit_minor, grant.currency ?? "", locale)} a day`
                : null,
              grant.monthly_limit_minor !== null
                ? `${formatMinor(grant.monthly_limit_minor, grant.currency ?? "", locale)} a month`
                : null,
            ]
              .filter(Boolean)
              .join(", ")}{" "}
            <span className="muted">(for {resourceText(grant.resource, names)})</span>
          </dd>
        </div>
      ))}
      {approval.trigger === "over_limit" && approval.currency && limits.every((g) => g.currency !== approval.currency) ? (
        <div>
          <dt>Currency</dt>
          <dd>{approval.currency} is not its limits&apos; currency, so it cannot be counted without you.</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The held write's body or the request's terms, one line per field. */
function Params({ approval, names }: { approval: TApproval; names: TApprovalNames }) {
  const entries = Object.entries(approval.params).filter(([, value]) => value !== null && value !== undefined && value !== "");
  if (entries.length === 0) return null;
  return (
    <dl className="approval-params" aria-label="Details">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key.replace(/_/g, " ")}</dt>
          <dd>
            {key === "grant" && approval.action === "grant_scope" ? <GrantText grant={value} names={names} /> : compact(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function GrantText({ grant, names }: { grant: unknown; names: TApprovalNames }) {
  if (!grant || typeof grant !== "object") return <>{compact(grant)}</>;
  const { scope, level, resource } = grant as { scope?: string; level?: "recommend" | "execute"; resource?: string };
  return (
    <>
      {SCOPE_LABELS[scope as keyof typeof SCOPE_LABELS] ?? scope} · {level ? levelLabel(level) : "?"} · for{" "}
      {resourceText(resource, names)}
    </>
  );
}

/** A value on one short line: strings as they are, anything else as compact JSON. */
function compact(value: unknown, max = 160): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
