"use client";
// Budget reservations: money set aside for a purpose, newest first, beside the "Reserve
// budget" form. Each active one can be released, in full or in part, after a confirmation.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { localToday } from "@/lib/days";
import { formatMinor, majorToMinor, minorToMajor } from "@/lib/money";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TReservation } from "@/server/reservations/reservation.schema";
import { auditHref } from "../audit/audit-labels";
import { ScopeCell, scopeName, useScopes, type TScopes } from "../events/scopes";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { CardHeader, CardSection } from "../ui/card";
import { Confirm } from "../ui/confirm";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { ScrollRegion } from "../ui/scroll-region";
import { Field, FormAlert } from "../ui/field";
import { FolderIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import { Segmented } from "../ui/segmented";
import { StatusPill } from "../ui/status-pill";
import { NewReservationForm } from "./new-reservation-form";

const PAGE_SIZE = 25;

type TFilter = "active" | "released" | "all";
const FILTERS = [
  { value: "active", label: "Active" },
  { value: "released", label: "Released" },
  { value: "all", label: "All" },
] as const;

function Amount({
  minor,
  currency,
  base,
  baseCurrency,
}: {
  minor: number | null;
  currency: string;
  base: number | null;
  baseCurrency: string;
}) {
  return (
    <>
      <span style={{ whiteSpace: "nowrap" }}>{formatMinor(minor, currency)}</span>
      {currency !== baseCurrency ? (
        <span className="cell-sub" style={{ whiteSpace: "nowrap" }}>
          ≈ {formatMinor(base, baseCurrency)}
        </span>
      ) : null}
    </>
  );
}

/** The base amount of what remains, at the reservation's own (today's) rate. */
function remainingBase(r: TReservation): number | null {
  if (r.base_amount_minor === null || r.amount_minor === null || r.remaining_minor === null) return null;
  if (r.remaining_minor === r.amount_minor) return r.base_amount_minor;
  if (r.amount_minor <= 0) return null;
  // Integer arithmetic, rounded half up (both are positive): never a float for money.
  const base = BigInt(r.base_amount_minor) * BigInt(r.remaining_minor);
  const total = BigInt(r.amount_minor);
  return Number((2n * base + total) / (2n * total));
}

function columns(scopes: TScopes, today: string, releasing: string | null, startRelease: (id: string) => void) {
  const list: TColumn<TReservation>[] = [
    {
      header: "Purpose",
      cell: (r) => (
        <>
          <span className="cell-strong">{r.purpose}</span>
          <span className="cell-sub">
            Reserved <DateTime iso={r.created_at} /> ·{" "}
            <Link
              href={auditHref({ target_type: "budget_reservation", target_id: r.id })}
              aria-label={`History of ${r.purpose} in the audit log`}
            >
              History
            </Link>
          </span>
        </>
      ),
    },
    { header: "Scope", cell: (r) => <ScopeCell scopes={scopes} record={r} /> },
    {
      header: "Reserved",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (r) => (
        <Amount minor={r.amount_minor} currency={r.currency} base={r.base_amount_minor} baseCurrency={r.base_currency} />
      ),
    },
    {
      header: "Remaining",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (r) => (
        <Amount minor={r.remaining_minor} currency={r.currency} base={remainingBase(r)} baseCurrency={r.base_currency} />
      ),
    },
    {
      header: "Expires",
      cellClassName: "cell-date",
      cell: (r) =>
        r.expires_on ? (
          <span style={{ whiteSpace: "nowrap" }}>
            <span className="mono">{r.expires_on}</span>
            {r.status === "active" && r.expires_on < today ? <span className="cell-sub">past its last day</span> : null}
          </span>
        ) : (
          <span className="muted">No end</span>
        ),
    },
    {
      header: "Status",
      cell: (r) => (
        <StatusPill status={r.status === "active" && r.expires_on !== null && r.expires_on < today ? "expired" : r.status} />
      ),
    },
    {
      header: <span className="visually-hidden">Actions</span>,
      headerClassName: "cell-right",
      cellClassName: "cell-right",
      cell: (r) =>
        r.status === "active" ? (
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={releasing === r.id}
            aria-label={`Release ${r.purpose}`}
            onClick={() => startRelease(r.id)}
          >
            Release…
          </button>
        ) : null,
    },
  ];
  return list;
}

export function ReservationsView({ defaultCurrency }: { defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopes = useScopes();
  const [filter, setFilter] = useState<TFilter>("active");
  const [releasingId, setReleasingId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const input = { limit: PAGE_SIZE, ...(filter === "all" ? {} : { status: filter }) };
  const list = useCursorList({
    queryKey: trpc.reservations.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.reservations.find.query({ ...input, cursor }, { signal }),
  });
  const releasing = list.items.find((r) => r.id === releasingId) ?? null;
  const today = localToday();

  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <CardSection
        headingId="new-reservation-heading"
        title="Reserve budget"
        description="Set money aside before you spend it: free capital and the forecast count it as spoken for until you release it."
      >
        <div className="card-body">
          <NewReservationForm scopes={scopes} defaultCurrency={defaultCurrency} />
        </div>
      </CardSection>
      {releasing ? (
        <ReleaseCard
          key={releasing.id}
          reservation={releasing}
          scopeLabel={scopeName(scopes, releasing)}
          onDone={(message) => {
            setReleasingId(null);
            setNotice(message);
          }}
          onCancel={() => setReleasingId(null)}
        />
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="card" aria-labelledby="reservations-heading">
        <CardHeader headingId="reservations-heading" title="Reservations" wrap>
          <div className="toolbar">
            {list.items.length > 0 ? (
              <span className="count">
                {list.items.length}
                {list.hasNextPage ? "+" : ""} {list.items.length === 1 ? "reservation" : "reservations"}
              </span>
            ) : null}
            <Segmented label="Which reservations" value={filter} options={FILTERS} onChange={setFilter} />
          </div>
        </CardHeader>
        {list.isError ? (
          <div className="card-body">
            <FormAlert message={formErrorOf(list.error, []).summary} />
          </div>
        ) : list.items.length === 0 ? (
          <EmptyState
            icon={<FolderIcon />}
            title={
              list.isPending
                ? "Loading reservations…"
                : filter === "released"
                  ? "Nothing released yet"
                  : filter === "active"
                    ? "No active reservations"
                    : "No reservations yet"
            }
          >
            A reservation sets money aside for something you have decided to pay (a campaign, a hire, taxes), so free capital and
            the forecast stop counting it as available. Reserve an amount with the form above; release it when it is spent or no
            longer needed.
          </EmptyState>
        ) : (
          <ScrollRegion label="Reservations, scrollable">
            <DataTable
              columns={columns(scopes, today, releasingId, (id) => {
                setNotice(null);
                setReleasingId(id);
              })}
              items={list.items}
              rowProps={(r) => (r.id === releasingId ? { "data-current": true } : {})}
            />
          </ScrollRegion>
        )}
        <LoadMore list={list} />
      </section>
    </div>
  );
}

/** Releasing one reservation: everything that remains (the default) or a part of it. */
function ReleaseCard(props: {
  reservation: TReservation;
  scopeLabel: string;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const r = props.reservation;
  const remaining = r.remaining_minor ?? 0;
  const [amount, setAmount] = useState(minorToMajor(remaining, r.currency));
  const [error, setError] = useState<{ amount?: string; summary?: string | null }>({});

  const release = useMutation(
    trpc.reservations.release.mutationOptions({
      onSuccess: async ({ data }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.reservations.find.pathKey() });
        props.onDone(
          data.status === "released"
            ? `“${data.purpose}” was released in full.`
            : `Released part of “${data.purpose}”; ${formatMinor(data.remaining_minor, data.currency)} remain reserved.`,
        );
      },
      onError: (cause) => {
        const formError = formErrorOf(cause, ["amount_minor"]);
        setError({ amount: formError.fields.amount_minor, summary: formError.summary });
      },
    }),
  );

  function onRelease() {
    const parsed = majorToMinor(amount, r.currency);
    if (!parsed.ok) {
      setError({ amount: parsed.message });
      return;
    }
    setError({});
    release.mutate({ id: r.id, ...(parsed.minor === remaining ? {} : { amount_minor: parsed.minor }) });
  }

  return (
    <CardSection
      headingId="release-heading"
      title={`Release “${r.purpose}”`}
      description={`${props.scopeLabel} · ${formatMinor(remaining, r.currency)} of ${formatMinor(r.amount_minor, r.currency)} still reserved`}
    >
      <div className="card-body">
        <FormAlert message={error.summary ?? null} />
        <Confirm
          label="Confirm release"
          action={
            <ActionButton look="button-primary" pending={release.isPending} onClick={onRelease}>
              Release
            </ActionButton>
          }
          onCancel={props.onCancel}
        >
          <p style={{ margin: "0 0 8px" }}>
            The released money counts as available again. Releasing everything closes the reservation for good.
          </p>
          <Field
            label={`Amount to release (${r.currency})`}
            error={error.amount}
            hint="Everything that remains, unless you change it."
          >
            {(control) => (
              <input
                {...control}
                className="input mono input-amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(event) => {
                  setAmount(event.target.value);
                  setError({});
                }}
              />
            )}
          </Field>
        </Confirm>
      </div>
    </CardSection>
  );
}
