"use client";
// The audit log: every write, denial and decision, newest first, filtered by who did it (you,
// an agent, an integration, the system), what (an exact action or a prefix), which record,
// and when. Filters apply on "Apply"; the list pages with the API's cursor.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TAuditEntry } from "@/server/audit/audit.schema";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { CardHeader } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { ScrollRegion } from "../ui/scroll-region";
import { Field, FormAlert } from "../ui/field";
import { ListIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import {
  ACTION_SUGGESTIONS,
  AUDIT_FILTER_FIELDS,
  NO_AUDIT_FILTERS,
  TARGET_TYPES,
  actionLabel,
  auditHref,
  targetLabel,
  type TAuditFilters,
} from "./audit-labels";

const PAGE_SIZE = 50;

/** An entry as the client sees it (tRPC's inferred output leaves unknown details optional). */
type TEntry = Omit<TAuditEntry, "details"> & { details?: unknown };
const FILTER_FIELDS = AUDIT_FILTER_FIELDS;
type TFilters = TAuditFilters;
const NO_FILTERS = NO_AUDIT_FILTERS;

const ACTOR_TYPES = [
  { value: "", label: "Anyone" },
  { value: "owner", label: "You" },
  { value: "agent", label: "Agents" },
  { value: "integration", label: "Integrations" },
  { value: "system", label: "The system" },
] as const;

const GRID = {
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(180px, 1fr))",
  gap: "4px 16px",
  alignItems: "start",
} as const;

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** Where a record of the entry can be seen in the panel, if it has a page. */
function targetHref(target: { type: string; id: string }): string | null {
  if (target.type === "business") return `/businesses/${target.id}`;
  if (target.type === "agent") return `/agents/${target.id}`;
  return null;
}

function Actor({ entry, agents }: { entry: TEntry; agents: Map<string, string> }) {
  const { type, id } = entry.actor;
  if (type === "owner") return <span>You</span>;
  if (type === "agent" && id) {
    return (
      <>
        <Link href={`/agents/${id}`}>{agents.get(id) ?? "Agent"}</Link>
        <span className="cell-sub">agent</span>
      </>
    );
  }
  return (
    <>
      <span>{type === "system" ? "The system" : type === "integration" ? "Integration" : "Public request"}</span>
      {id ? (
        <span className="cell-sub mono" title={id}>
          {shortId(id)}
        </span>
      ) : null}
    </>
  );
}

export function AuditView({ initialFilters = NO_FILTERS }: { initialFilters?: TFilters }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const router = useRouter();
  const [draft, setDraft] = useState<TFilters>(initialFilters);
  const [applied, setAppliedState] = useState<TFilters>(initialFilters);
  // The address carries the filters, so a filtered log can be linked to, reloaded and shared.
  const setApplied = (next: TFilters) => {
    setAppliedState(next);
    router.replace(auditHref(next), { scroll: false });
  };
  const [rangeError, setRangeError] = useState<string | null>(null);
  const agents = useQuery({
    ...trpc.agents.find.queryOptions({ limit: 200 }),
    select: (page) => new Map(page.data.map((agent) => [agent.id, agent.name])),
  });
  const agentNames = agents.data ?? new Map<string, string>();

  const input = {
    limit: PAGE_SIZE,
    ...Object.fromEntries(Object.entries(applied).filter(([, value]) => value !== "")),
  } as { limit: number } & Partial<TFilters> & { actor_type?: "owner" | "agent" | "integration" | "system" };
  const list = useCursorList({
    queryKey: trpc.audit.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.audit.find.query({ ...input, cursor }, { signal }),
  });
  const listError = list.isError ? formErrorOf(list.error, FILTER_FIELDS) : null;
  const filtered = Object.values(applied).some((value) => value !== "");

  function set(field: keyof TFilters, value: string) {
    setDraft((current) => ({ ...current, [field]: value, ...(field === "actor_type" ? { actor_id: "" } : {}) }));
    if (field === "from" || field === "to") setRangeError(null);
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    const next = { ...draft, action: draft.action.trim(), target_id: draft.target_id.trim() };
    if (next.from && next.to && next.from > next.to) {
      setRangeError("The first day must not be after the last day.");
      return;
    }
    setRangeError(null);
    setApplied(next);
  }

  function showRecord(target: { type: string; id: string }) {
    const next = { ...NO_FILTERS, target_type: target.type, target_id: target.id };
    setDraft(next);
    setApplied(next);
  }

  const columns: TColumn<TEntry>[] = [
    { header: "When", cellClassName: "cell-date", cell: (e) => <DateTime iso={e.created_at} withTime /> },
    { header: "Who", cell: (e) => <Actor entry={e} agents={agentNames} /> },
    {
      header: "What",
      cell: (e) => (
        <>
          <span className="cell-strong">{actionLabel(e.action)}</span>
          <span className="cell-sub mono">{e.action}</span>
        </>
      ),
    },
    {
      header: "Record",
      cell: (e) => {
        if (!e.target) return <span className="muted">—</span>;
        const target = e.target;
        const href = targetHref(target);
        return (
          <>
            <span>{targetLabel(target.type)}</span>{" "}
            {href ? (
              <Link href={href} className="mono" title={target.id}>
                {shortId(target.id)}
              </Link>
            ) : (
              <span className="mono" title={target.id}>
                {shortId(target.id)}
              </span>
            )}
            <span className="cell-sub">
              <button
                type="button"
                className="button button-ghost"
                style={{ height: "auto", padding: 0 }}
                aria-label={`Show the history of ${targetLabel(target.type).toLowerCase()} ${target.id}`}
                onClick={() => showRecord(target)}
              >
                History
              </button>
            </span>
          </>
        );
      },
    },
    {
      header: "Details",
      cell: (e) =>
        e.details == null && !e.request_id ? (
          <span className="muted">—</span>
        ) : (
          <details>
            <summary>Show</summary>
            {e.details != null ? (
              <pre className="mono" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word", maxWidth: 360, margin: "6px 0" }}>
                {JSON.stringify(e.details, null, 2)}
              </pre>
            ) : null}
            {e.request_id ? <span className="cell-sub mono">request {e.request_id}</span> : null}
          </details>
        ),
    },
  ];

  const fieldErrors = listError?.fields ?? {};
  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <section className="card" aria-labelledby="audit-filters-heading">
        <CardHeader
          headingId="audit-filters-heading"
          title="Filters"
          description="Narrow the log to who did something, what they did, to which record, and when."
        />
        <form className="card-body form" onSubmit={apply} noValidate aria-labelledby="audit-filters-heading">
          <FormAlert message={listError?.summary ?? null} />
          <div style={GRID}>
            <Field label="Who" error={fieldErrors.actor_type}>
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={draft.actor_type}
                  onChange={(e) => set("actor_type", e.target.value)}
                >
                  {ACTOR_TYPES.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {draft.actor_type === "agent" ? (
              <Field label="Agent" error={fieldErrors.actor_id}>
                {(control) => (
                  <select
                    {...control}
                    className="select"
                    value={draft.actor_id}
                    onChange={(e) => set("actor_id", e.target.value)}
                  >
                    <option value="">Any agent</option>
                    {[...agentNames].map(([id, name]) => (
                      <option key={id} value={id}>
                        {name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ) : null}
            <Field label="Action" error={fieldErrors.action} hint="Exact, or a prefix ending in * (reservation.*).">
              {(control) => (
                <>
                  <input
                    {...control}
                    className="input mono"
                    list="audit-actions"
                    autoComplete="off"
                    maxLength={128}
                    placeholder="any"
                    value={draft.action}
                    onChange={(e) => set("action", e.target.value)}
                  />
                  <datalist id="audit-actions">
                    {ACTION_SUGGESTIONS.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </datalist>
                </>
              )}
            </Field>
            <Field label="Record type" error={fieldErrors.target_type}>
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={draft.target_type}
                  onChange={(e) => set("target_type", e.target.value)}
                >
                  <option value="">Any record</option>
                  {TARGET_TYPES.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Record ID" error={fieldErrors.target_id}>
              {(control) => (
                <input
                  {...control}
                  className="input mono"
                  autoComplete="off"
                  maxLength={64}
                  placeholder="any"
                  value={draft.target_id}
                  onChange={(e) => set("target_id", e.target.value)}
                />
              )}
            </Field>
            <Field label="From" error={fieldErrors.from ?? rangeError}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  type="date"
                  value={draft.from}
                  onChange={(e) => set("from", e.target.value)}
                />
              )}
            </Field>
            <Field label="To" error={fieldErrors.to}>
              {(control) => (
                <input {...control} className="input" type="date" value={draft.to} onChange={(e) => set("to", e.target.value)} />
              )}
            </Field>
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary">
              Apply filters
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={!filtered && draft === NO_FILTERS}
              onClick={() => {
                setDraft(NO_FILTERS);
                setApplied(NO_FILTERS);
                setRangeError(null);
              }}
            >
              Clear
            </button>
          </div>
        </form>
      </section>
      <section className="card" aria-labelledby="audit-heading">
        <CardHeader
          headingId="audit-heading"
          title={filtered ? "Matching entries" : "All entries"}
          description="Newest first. Times are in your time zone; the dates of the filter are UTC days."
        >
          {list.items.length > 0 ? (
            <span className="count">
              {list.items.length}
              {list.hasNextPage ? "+" : ""} {list.items.length === 1 ? "entry" : "entries"}
            </span>
          ) : null}
        </CardHeader>
        {list.isError ? null : list.items.length === 0 ? (
          <EmptyState
            icon={<ListIcon />}
            title={
              list.isPending ? "Loading the audit log…" : filtered ? "No entry matches these filters" : "Nothing recorded yet"
            }
          >
            {filtered
              ? "Widen the filters or clear them to see the whole log."
              : "Every change you or your agents make (a business created, an expense recorded, an approval decided, an agent refused) is written here. Make a change and it appears."}
          </EmptyState>
        ) : (
          <ScrollRegion label="Audit entries, scrollable">
            <DataTable columns={columns} items={list.items} />
          </ScrollRegion>
        )}
        <LoadMore list={list} />
      </section>
    </div>
  );
}
