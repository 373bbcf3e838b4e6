"use client";
// The owner's ledger: financial events searched (description, category, counterparty), sorted
// by day or amount, filtered by business, type, state, category, source, dates and currency, a
// page at a time, with the filtered totals in the base currency, a CSV export of the same
// rows, and Correct / Void on manual events and imported bank lines; beside the "New event" form. Money out shows a
// minus sign and money in a plus sign, each in its colour (never the colour alone). The filters
// and the sort live in the address (?business_id=…&from=…), so a reload or a shared link keeps
// them, and the Reports page links each figure to the events behind it.
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { EVENT_STATES, EVENT_TYPES, type TEventState, type TEventType } from "@/lib/event-types";
import { formatMinor } from "@/lib/money";
import { moneyDirection, type TMoneyDirection } from "@/lib/money-direction";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { appCodeOf } from "@/lib/trpc/errors";
import type { TEvent, TEventSort } from "@/server/ledger/event.schema";
import { ListCard } from "../panel/list-card";
import { usePreferences } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { CardSection } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { ListIcon } from "../ui/icons";
import { FixEventDialog, type TFixRequest } from "./fix-event-dialog";
import { isImportedLine } from "./imported-line";
import { NewEventForm } from "./new-event-form";
import { ScopeCell, useScopes, type TScopes } from "./scopes";

export const EVENTS_PAGE_SIZE = 25;

type TFilters = {
  q: string;
  business_id: string;
  type: "" | TEventType;
  state: "" | TEventState;
  category: string;
  source_type: "" | TEvent["source_type"];
  from: string;
  to: string;
  currency: string;
  /** Set from the address only (a Reports figure's link): a project, or "true" for the personal finances. */
  project_id: string;
  personal: string;
  /** "true": only events without a category / without a project (the reports' Uncategorized and No project rows). */
  no_category: string;
  no_project: string;
  /** "true": only what the reports count; side "in" or "out": one side of the profit and loss. */
  counted: string;
  side: string;
};
const NO_FILTERS: TFilters = {
  q: "",
  business_id: "",
  type: "",
  state: "",
  category: "",
  source_type: "",
  from: "",
  to: "",
  currency: "",
  project_id: "",
  personal: "",
  no_category: "",
  no_project: "",
  counted: "",
  side: "",
};

/** The "Counted" select: what the reports count, or one side of the profit and loss (both filters at once). */
const COUNTED_OPTIONS = [
  { value: "", label: "Counted or not", counted: "", side: "" },
  { value: "counted", label: "Counted in reports", counted: "true", side: "" },
  { value: "in", label: "Counted, money in", counted: "true", side: "in" },
  { value: "out", label: "Counted, money out", counted: "true", side: "out" },
] as const;

const SORTS: { value: TEventSort; label: string }[] = [
  { value: "-occurred_on", label: "Date, newest first" },
  { value: "occurred_on", label: "Date, oldest first" },
  { value: "-amount", label: "Amount, largest first" },
  { value: "amount", label: "Amount, smallest first" },
  { value: "-created_at", label: "Recently added" },
];
const DEFAULT_SORT: TEventSort = "-occurred_on";

const SOURCE_LABELS: Record<TEvent["source_type"], string> = {
  MANUAL: "Entered by hand",
  IMPORT: "Bank statement import",
  PAYMENTS_API: "Payments integration",
  SEARCH_ADS_API: "Search ads integration",
  SOCIAL_ADS_API: "Social ads integration",
};

/** The list's query: the filters that are set (the search once typing pauses). */
function queryOf(filters: TFilters, q: string, sort: TEventSort) {
  return {
    sort,
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(filters.business_id ? { business_id: filters.business_id } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.category.trim() ? { category: filters.category.trim() } : {}),
    ...(filters.source_type ? { source_type: filters.source_type } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(/^[A-Z]{3}$/.test(filters.currency) ? { currency: filters.currency } : {}),
    ...(filters.project_id ? { project_id: filters.project_id } : {}),
    ...(filters.personal === "true" ? { personal: true } : {}),
    ...(filters.no_category === "true" ? { no_category: true } : {}),
    ...(filters.no_project === "true" ? { no_project: true } : {}),
    ...(filters.counted === "true" ? { counted: true } : {}),
    ...(filters.side === "in" || filters.side === "out" ? { side: filters.side as "in" | "out" } : {}),
  };
}

/** The filters and sort an address carries (unknown values are left out: the list's own checks would refuse them). */
function fromAddress(params: URLSearchParams): { filters: TFilters; sort: TEventSort } {
  const filters = { ...NO_FILTERS };
  for (const key of Object.keys(NO_FILTERS) as (keyof TFilters)[]) {
    const value = params.get(key);
    if (value !== null) (filters as Record<string, string>)[key] = value;
  }
  if (filters.type && !(EVENT_TYPES as readonly string[]).includes(filters.type)) filters.type = "";
  if (filters.state && !(EVENT_STATES as readonly string[]).includes(filters.state)) filters.state = "";
  if (filters.source_type && !(filters.source_type in SOURCE_LABELS)) filters.source_type = "";
  for (const flag of ["no_category", "no_project", "counted"] as const) if (filters[flag] !== "true") filters[flag] = "";
  if (filters.side !== "in" && filters.side !== "out") filters.side = "";
  const sort = SORTS.find((option) => option.value === params.get("sort"))?.value ?? DEFAULT_SORT;
  return { filters, sort };
}

/** The address of some filters and a sort (only what is set; the default sort left out). */
function addressOf(filters: TFilters, sort: TEventSort): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (sort !== DEFAULT_SORT) params.set("sort", sort);
  return params.toString();
}

/** `value` once it has stopped changing for `ms` (the search box: one query per pause, not per key). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const SIGN: Record<TMoneyDirection, string> = { in: "+", out: "\u2212" };

/** An amount with its direction's sign and colour (+ in, − out), in the owner's locale; no sign for other types. */
function SignedAmount(props: {
  minor: number;
  currency: string;
  direction: TMoneyDirection | null;
  testId: string;
  style: object;
}) {
  const { locale } = usePreferences();
  const { direction } = props;
  return (
    <span
      data-testid={props.testId}
      className={direction ? `money-${direction}` : undefined}
      title={direction === "in" ? "Money in" : direction === "out" ? "Money out" : undefined}
      style={props.style}
    >
      {direction ? SIGN[direction] : ""}
      {formatMinor(props.minor, props.currency, locale)}
    </span>
  );
}

/** Voided events stay listed, their amounts struck through (they no longer count). */
function struck(event: TEvent) {
  return event.status === "voided"
    ? ({ whiteSpace: "nowrap", textDecoration: "line-through" } as const)
    : ({ whiteSpace: "nowrap" } as const);
}

/** Where an event came from, in words: an agent's action is not the owner's hand entry. */
export function sourceWords(event: Pick<TEvent, "type" | "source_type">): string {
  if (event.type === "agent_action") return "An agent's action";
  return SOURCE_LABELS[event.source_type] ?? event.source_type;
}

/** An event's type in words ("planned expense", "ad spend"). */
function typeWords(type: string): string {
  return type === "agent_action" ? "agent action" : type.replace(/_/g, " ");
}

/**
 * Correct / Void of a manual event or an imported bank line; other integrations' events are
 * restated by their source (the server decides: a line is one of a statement import, whose
 * payload names its batch). A reconciled line does not count: it can be voided, not corrected.
 */
function FixButtons({ event, fix }: { event: TEvent; fix: (request: TFixRequest) => void }) {
  const name = event.description || typeWords(event.type);
  return (
    <div className="row-actions">
      {event.reconciled ? null : (
        <button
          type="button"
          className="button button-ghost"
          aria-label={`Correct ${name}`}
          onClick={() => fix({ kind: "correct", event })}
        >
          Correct
        </button>
      )}
      <button
        type="button"
        className="button button-ghost button-danger-text"
        aria-label={`Void ${name}`}
        onClick={() => fix({ kind: "void", event })}
      >
        Void
      </button>
    </div>
  );
}

/**
 * The ledger's columns, read in this order on a phone too: what it was (description, with its day
 * and type under it), then its amount; the base amount shows only when the currency differs from
 * the base (the same money at rate 1 adds nothing), then the scope and where it came from.
 */
function columns(scopes: TScopes, fix: (request: TFixRequest) => void): TColumn<TEvent>[] {
  return [
    {
      header: "Event",
      cellClassName: "cell-description",
      cell: (event) => (
        <>
          <span className="cell-strong">{event.description || event.category || typeWords(event.type)}</span>
          <span className="cell-sub">
            <span className="mono" style={{ whiteSpace: "nowrap" }}>
              {event.occurred_on}
            </span>{" "}
            · {typeWords(event.type)}
            {event.state === "planned" && event.type !== "planned_expense" ? " (planned)" : ""}
            {event.description && event.category ? ` · ${event.category}` : ""}
          </span>
        </>
      ),
    },
    {
      header: "Amount",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (event) => {
        const direction = moneyDirection(event.type, event.direction);
        const converted = event.base_currency !== null && event.base_currency !== event.currency;
        return (
          <>
            {event.amount_minor === null ? (
              <span className="muted">—</span>
            ) : (
              <SignedAmount
                testId="event-amount"
                minor={event.amount_minor}
                currency={event.currency}
                direction={direction}
                style={struck(event)}
              />
            )}
            {converted && event.base_amount_minor !== null && event.base_currency ? (
              <span className="cell-sub">
                <SignedAmount
                  testId="event-base-amount"
                  minor={event.base_amount_minor}
                  currency={event.base_currency}
                  direction={direction}
                  style={struck(event)}
                />
                {event.fx ? (
                  <span
                    style={{ display: "block", whiteSpace: "nowrap" }}
                    title={event.fx.kind === "current" ? "Current rate" : "Rate frozen when recorded"}
                  >
                    rate {event.fx.rate} ({event.fx.source}, {event.fx.as_of}){event.fx.stale ? " stale" : ""}
                  </span>
                ) : null}
              </span>
            ) : converted ? (
              <span className="cell-sub muted">no rate</span>
            ) : null}
          </>
        );
      },
    },
    { header: "Scope", cell: (event) => <ScopeCell scopes={scopes} record={event} /> },
    {
      header: "Status",
      cell: (event) => (
        <>
          {event.status === "voided" ? (
            <span className="pill pill-neutral" style={{ textDecoration: "line-through" }}>
              voided
            </span>
          ) : (
            <span className="pill pill-success">{event.status}</span>
          )}
          <span className="cell-sub" title="Source" data-testid="event-source">
            {sourceWords(event)}
          </span>
          {event.supersedes_event_id ? <span className="cell-sub">corrected version</span> : null}
          {event.reconciled && event.status === "confirmed" ? (
            <span className="cell-sub">matched to another entry, not counted</span>
          ) : null}
          {/* An agent's action is the record of its decision: it is not the owner's entry to correct or void here. */}
          {(event.source_type === "MANUAL" || isImportedLine(event)) &&
          event.type !== "agent_action" &&
          event.status === "confirmed" ? (
            <FixButtons event={event} fix={fix} />
          ) : null}
        </>
      ),
    },
  ];
}

/** In, out and net of the filtered rows in the base currency, as the Overview counts them. */
function TotalsLine({ input }: { input: ReturnType<typeof queryOf> }) {
  const trpc = useTRPC();
  const { locale } = usePreferences();
  const { sort: _sort, ...filters } = input;
  const totals = useQuery(trpc.ledger.findEventTotals.queryOptions(filters));
  if (!totals.data) {
    return (
      <p className="ledger-totals muted" role="status">
        {!totals.isError
          ? "Adding up…"
          : appCodeOf(totals.error) === "amount_out_of_range"
            ? "These totals are beyond 9,007,199,254,740,991 minor units, too large to show exactly, so they are not shown rather than rounded. Narrow the filters, or correct the amount entered in error."
            : "The totals could not be loaded."}
      </p>
    );
  }
  const t = totals.data.data;
  const money = (minor: number) => formatMinor(minor, t.base_currency, locale);
  return (
    <p className="ledger-totals" role="status" aria-label="Totals of the matching events">
      <span>
        In{" "}
        <strong className="money-in mono" data-testid="totals-in">
          +{money(t.in_minor)}
        </strong>
      </span>
      <span>
        Out{" "}
        <strong className="money-out mono" data-testid="totals-out">
          {"\u2212"}
          {money(t.out_minor)}
        </strong>
      </span>
      <span>
        Net{" "}
        <strong className={`mono ${t.net_minor < 0 ? "money-out" : "money-in"}`} data-testid="totals-net">
          {t.net_minor < 0 ? "\u2212" : "+"}
          {money(Math.abs(t.net_minor))}
        </strong>
      </span>
      {/* "N counted" alone adds nothing; what is left out of the sums is worth saying. */}
      {t.not_counted > 0 ? <span className="muted">{t.not_counted} not counted (voided, reconciled or planned)</span> : null}
    </p>
  );
}

function exportHref(input: ReturnType<typeof queryOf>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) params.set(key, String(value));
  return `/api/panel/events/export?${params.toString()}`;
}

export function EventsView({ defaultCurrency }: { defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopes = useScopes();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [initial] = useState(() => fromAddress(new URLSearchParams(searchParams.toString())));
  const [filters, setFilters] = useState<TFilters>(initial.filters);
  const [sort, setSort] = useState<TEventSort>(initial.sort);
  // The address follows the filters (replaced, not pushed: the back button leaves the page).
  const address = addressOf(filters, sort);
  useEffect(() => {
    if (address !== new URLSearchParams(window.location.search).toString()) {
      router.replace(address ? `${pathname}?${address}` : pathname, { scroll: false });
    }
  }, [address, pathname, router]);
  const [fixing, setFixing] = useState<TFixRequest>(null);
  const q = useSettled(filters.q, 300);
  const query = queryOf(filters, q, sort);
  const input = { limit: EVENTS_PAGE_SIZE, ...query };
  const list = useCursorList({
    queryKey: trpc.ledger.findEvents.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.ledger.findEvents.query({ ...input, cursor }, { signal }),
  });
  const filtered = Object.values(filters).some(Boolean);
  const set = <K extends keyof TFilters>(key: K, value: TFilters[K]) => setFilters((current) => ({ ...current, [key]: value }));

  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <CardSection headingId="new-event-heading" title="New event" description="An expense, a revenue or a planned expense.">
        <div className="card-body">
          <NewEventForm scopes={scopes} defaultCurrency={defaultCurrency} />
        </div>
      </CardSection>
      <section className="card" aria-label="Filters">
        <div className="card-body toolbar">
          <input
            className="input ledger-search"
            type="search"
            aria-label="Search events"
            placeholder="Search description, category, counterparty"
            maxLength={200}
            value={filters.q}
            onChange={(e) => set("q", e.target.value)}
          />
          <select
            className="select"
            aria-label="Sort"
            value={sort}
            onChange={(e) => setSort(e.target.value as TEventSort)}
            style={{ width: "auto" }}
          >
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <select
            className="select"
            aria-label="Business"
            value={filters.business_id}
            onChange={(e) => set("business_id", e.target.value)}
            style={{ width: "auto" }}
          >
            <option value="">All businesses</option>
            {scopes.businesses.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
          <select
            className="select"
            aria-label="Type"
            value={filters.type}
            onChange={(e) => set("type", e.target.value as TFilters["type"])}
            style={{ width: "auto" }}
          >
            <option value="">All types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t.replace(/_/g, " ")}
              </option>
            ))}
          </select>
          <select
            className="select"
            aria-label="State"
            value={filters.state}
            onChange={(e) => set("state", e.target.value as TFilters["state"])}
            style={{ width: "auto" }}
          >
            <option value="">Actual and planned</option>
            {EVENT_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <input
            className="input"
            aria-label="Category filter"
            placeholder="Category"
            maxLength={100}
            value={filters.category}
            onChange={(e) => set("category", e.target.value)}
            style={{ width: 140 }}
          />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={filters.no_category === "true"}
              onChange={(e) => set("no_category", e.target.checked ? "true" : "")}
            />
            No category
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={filters.no_project === "true"}
              onChange={(e) => set("no_project", e.target.checked ? "true" : "")}
            />
            No project
          </label>
          <select
            className="select"
            aria-label="Counted"
            value={filters.side || (filters.counted ? "counted" : "")}
            onChange={(e) => {
              const option = COUNTED_OPTIONS.find((o) => o.value === e.target.value) ?? COUNTED_OPTIONS[0];
              setFilters((current) => ({ ...current, counted: option.counted, side: option.side }));
            }}
            style={{ width: "auto" }}
          >
            {COUNTED_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <select
            className="select"
            aria-label="Source"
            value={filters.source_type}
            onChange={(e) => set("source_type", e.target.value as TFilters["source_type"])}
            style={{ width: "auto" }}
          >
            <option value="">All sources</option>
            {(Object.keys(SOURCE_LABELS) as TEvent["source_type"][]).map((source) => (
              <option key={source} value={source}>
                {SOURCE_LABELS[source]}
              </option>
            ))}
          </select>
          <input
            className="input"
            type="date"
            aria-label="From"
            value={filters.from}
            onChange={(e) => set("from", e.target.value)}
            style={{ width: "auto" }}
          />
          <input
            className="input"
            type="date"
            aria-label="To"
            value={filters.to}
            onChange={(e) => set("to", e.target.value)}
            style={{ width: "auto" }}
          />
          <input
            className="input mono input-code"
            aria-label="Currency filter"
            placeholder="CUR"
            maxLength={3}
            value={filters.currency}
            onChange={(e) => set("currency", e.target.value.toUpperCase())}
            style={{ width: 72 }}
          />
          {filtered ? (
            <button type="button" className="button button-ghost" onClick={() => setFilters(NO_FILTERS)}>
              Clear
            </button>
          ) : null}
        </div>
        <div className="card-body ledger-summary">
          <TotalsLine input={query} />
          <a className="button button-secondary" href={exportHref(query)} download>
            Export CSV
          </a>
        </div>
      </section>
      <ListCard
        headingId="events-heading"
        title="Events"
        noun={["event", "events"]}
        list={list}
        empty={
          <EmptyState
            icon={<ListIcon />}
            title={list.isPending ? "Loading events…" : filtered ? "No matching events" : "No events yet"}
          >
            {filtered
              ? "Nothing matches these filters. Clear them to see every event."
              : "Record an expense or a revenue with the form; integrations and imports add theirs here too."}
          </EmptyState>
        }
      >
        <DataTable columns={columns(scopes, setFixing)} items={list.items} scroll />
      </ListCard>
      <FixEventDialog request={fixing} onClose={() => setFixing(null)} />
    </div>
  );
}
