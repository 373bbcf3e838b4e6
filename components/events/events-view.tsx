"use client";
// The owner's financial events, newest first, filtered by business, type, state, dates and
// currency, a page at a time, beside the "New event" form.
import { useState } from "react";
import { EVENT_STATES, EVENT_TYPES, type TEventState, type TEventType } from "@/lib/event-types";
import { formatMinor } from "@/lib/money";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TEvent } from "@/server/ledger/event.schema";
import { ListCard } from "../panel/list-card";
import { useCursorList } from "../panel/use-cursor-list";
import { CardSection } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { ListIcon } from "../ui/icons";
import { NewEventForm } from "./new-event-form";
import { ScopeCell, useScopes, type TScopes } from "./scopes";

export const EVENTS_PAGE_SIZE = 25;

type TFilters = {
  business_id: string;
  type: "" | TEventType;
  state: "" | TEventState;
  from: string;
  to: string;
  currency: string;
};
const NO_FILTERS: TFilters = { business_id: "", type: "", state: "", from: "", to: "", currency: "" };

/** Voided events stay listed, their amounts struck through (they no longer count). */
function struck(event: TEvent) {
  return event.status === "voided"
    ? ({ whiteSpace: "nowrap", textDecoration: "line-through" } as const)
    : ({ whiteSpace: "nowrap" } as const);
}

function columns(scopes: TScopes): TColumn<TEvent>[] {
  return [
    {
      header: "Date",
      cellClassName: "cell-date",
      cell: (event) => (
        <span className="mono" style={{ whiteSpace: "nowrap" }}>
          {event.occurred_on}
        </span>
      ),
    },
    {
      header: "Type",
      cell: (event) => (
        <>
          <span className="badge">{event.type.replace(/_/g, " ")}</span>
          {event.state === "planned" ? <span className="cell-sub">planned</span> : null}
        </>
      ),
    },
    {
      header: "Description",
      cell: (event) => (
        <>
          <span className="cell-strong">{event.description || event.category || "—"}</span>
          {event.description && event.category ? <span className="cell-sub">{event.category}</span> : null}
        </>
      ),
    },
    { header: "Scope", cell: (event) => <ScopeCell scopes={scopes} record={event} /> },
    {
      header: "Amount",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (event) => (
        <span data-testid="event-amount" style={struck(event)}>
          {formatMinor(event.amount_minor, event.currency)}
        </span>
      ),
    },
    {
      header: "Base amount",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (event) =>
        event.base_amount_minor !== null && event.base_currency ? (
          <>
            <span data-testid="event-base-amount" style={struck(event)}>
              {formatMinor(event.base_amount_minor, event.base_currency)}
            </span>
            {event.fx ? (
              <span
                className="cell-sub"
                style={{ whiteSpace: "nowrap" }}
                title={event.fx.kind === "current" ? "Current rate" : "Rate frozen when recorded"}
              >
                rate {event.fx.rate} <br />({event.fx.source}, {event.fx.as_of}){event.fx.stale ? " stale" : ""}
              </span>
            ) : null}
          </>
        ) : (
          <span className="muted">no rate</span>
        ),
    },
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
          <span className="cell-sub" title="Source">
            {event.source_type}
          </span>
        </>
      ),
    },
  ];
}

export function EventsView({ defaultCurrency }: { defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopes = useScopes();
  const [filters, setFilters] = useState<TFilters>(NO_FILTERS);
  const input = {
    limit: EVENTS_PAGE_SIZE,
    ...(filters.business_id ? { business_id: filters.business_id } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(/^[A-Z]{3}$/.test(filters.currency) ? { currency: filters.currency } : {}),
  };
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
        <DataTable columns={columns(scopes)} items={list.items} scroll />
      </ListCard>
    </div>
  );
}
