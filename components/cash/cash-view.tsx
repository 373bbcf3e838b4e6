"use client";
// Cash: record a balance, the latest balance of each account per business and personal (the
// balances the Overview's cash sums), and every recorded snapshot, newest first.
import { useQuery } from "@tanstack/react-query";
import { formatMinor } from "@/lib/money";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TCashSnapshot } from "@/server/cash/cash-snapshot.schema";
import { useScopes, type TScopes } from "../events/scopes";
import { RecordCashForm } from "../overview/record-cash-form";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { CardHeader, CardSection } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { ScrollRegion } from "../ui/scroll-region";
import { FormAlert } from "../ui/field";
import { BuildingIcon, ListIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";

const PAGE_SIZE = 25;

function scopeLabel(scopes: TScopes, snapshot: TCashSnapshot): string {
  if (snapshot.personal) return "Personal";
  return scopes.businesses.find((b) => b.id === snapshot.business_id)?.name ?? "Business";
}

function Balance({ s }: { s: TCashSnapshot }) {
  return (
    <>
      <span style={{ whiteSpace: "nowrap" }}>{formatMinor(s.amount_minor, s.currency)}</span>
      {s.currency !== s.base_currency ? (
        <span className="cell-sub" style={{ whiteSpace: "nowrap" }}>
          ≈ {formatMinor(s.base_amount_minor, s.base_currency)}
        </span>
      ) : null}
    </>
  );
}

function Source({ s }: { s: TCashSnapshot }) {
  return s.data_class === "manual" ? (
    <span className="pill pill-neutral">manual</span>
  ) : (
    <span className="pill pill-accent" title={s.source_type}>
      {s.source_type.toLowerCase().replace(/_/g, " ")}
    </span>
  );
}

const ACCOUNT_COLUMNS: TColumn<TCashSnapshot>[] = [
  {
    header: "Account",
    cell: (s) => (
      <>
        <span className="cell-strong">{s.account_id}</span>
        {s.iban_last4 ? <span className="cell-sub mono">IBAN …{s.iban_last4}</span> : null}
      </>
    ),
  },
  { header: "Balance", headerClassName: "cell-right", cellClassName: "cell-right mono", cell: (s) => <Balance s={s} /> },
  { header: "As of", cellClassName: "cell-date", cell: (s) => <DateTime iso={s.as_of} withTime /> },
  { header: "Source", cell: (s) => <Source s={s} /> },
];

/** Σ of the base amounts (exact integers; BigInt so no sum is ever rounded), null if one is unknown. */
function baseTotal(rows: TCashSnapshot[]): number | null {
  let total = 0n;
  for (const row of rows) {
    if (row.base_amount_minor === null) return null;
    total += BigInt(row.base_amount_minor);
  }
  return Number.isSafeInteger(Number(total)) ? Number(total) : null;
}

function LatestBalances({ scopes }: { scopes: TScopes }) {
  const trpc = useTRPC();
  const latest = useQuery(trpc.cash.findLatestSnapshots.queryOptions({}));
  const rows = latest.data?.data ?? [];
  const groups = new Map<string, TCashSnapshot[]>();
  for (const row of rows) {
    const key = row.personal ? "personal" : `b:${row.business_id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  // Businesses in the order of the scope list (by name), personal last.
  const keys = [...groups.keys()].sort((a, b) => {
    if (a === "personal" || b === "personal") return a === "personal" ? 1 : -1;
    return scopeLabel(scopes, groups.get(a)![0]!).localeCompare(scopeLabel(scopes, groups.get(b)![0]!));
  });

  return (
    <section className="card" aria-labelledby="latest-cash-heading">
      <CardHeader
        headingId="latest-cash-heading"
        title="Latest balance per account"
        description="The newest balance of each account; the Overview's cash, runway and free capital add these up."
      />
      {latest.isError ? (
        <div className="card-body">
          <FormAlert message={formErrorOf(latest.error, []).summary} />
        </div>
      ) : rows.length === 0 ? (
        <EmptyState icon={<BuildingIcon />} title={latest.isPending ? "Loading balances…" : "No balances yet"}>
          Record what each bank account holds today with the form above: one balance per account, for a business or for your
          personal money. Cash, runway and free capital start from these.
        </EmptyState>
      ) : (
        <div className="card-body stack" style={{ gridTemplateColumns: "minmax(0, 1fr)" }}>
          {keys.map((key) => {
            const group = groups.get(key)!;
            const label = scopeLabel(scopes, group[0]!);
            const total = baseTotal(group);
            const headingId = `cash-${key.replace(":", "-")}`;
            return (
              <section key={key} aria-labelledby={headingId} style={{ minWidth: 0 }}>
                <div className="card-header" style={{ padding: "0 0 6px", border: "none", flexWrap: "wrap", gap: 4 }}>
                  <h3 id={headingId} style={{ margin: 0, fontSize: "1rem" }}>
                    {label}
                  </h3>
                  <span className="mono" style={{ whiteSpace: "nowrap" }}>
                    {group.length > 1 || group[0]!.currency !== group[0]!.base_currency ? (
                      <>
                        <span className="muted">Total ≈ </span>
                        {formatMinor(total, group[0]!.base_currency)}
                      </>
                    ) : null}
                  </span>
                </div>
                <ScrollRegion label={`Accounts of ${label}`}>
                  <DataTable columns={ACCOUNT_COLUMNS} items={group} compact />
                </ScrollRegion>
              </section>
            );
          })}
          {latest.data?.truncated ? <p className="hint">Only the first 500 accounts are shown.</p> : null}
        </div>
      )}
    </section>
  );
}

function RecentSnapshots({ scopes }: { scopes: TScopes }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.cash.findSnapshots.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.cash.findSnapshots.query({ ...input, cursor }, { signal }),
  });
  const columns: TColumn<TCashSnapshot>[] = [
    { header: "As of", cellClassName: "cell-date", cell: (s) => <DateTime iso={s.as_of} withTime /> },
    {
      header: "Business or personal",
      cell: (s) => (s.personal ? <span className="muted">Personal</span> : scopeLabel(scopes, s)),
    },
    { header: "Account", cell: (s) => <span className="cell-strong">{s.account_id}</span> },
    { header: "Balance", headerClassName: "cell-right", cellClassName: "cell-right mono", cell: (s) => <Balance s={s} /> },
    { header: "Source", cell: (s) => <Source s={s} /> },
    {
      header: "Recorded",
      headerClassName: "cell-right",
      cellClassName: "cell-date cell-right",
      cell: (s) => <DateTime iso={s.updated_at} withTime />,
    },
  ];
  return (
    <section className="card" aria-labelledby="recent-cash-heading">
      <CardHeader
        headingId="recent-cash-heading"
        title="Recent snapshots"
        description="Every balance recorded, newest first. One per account and day: a later reading of the same day replaces it."
      >
        {list.items.length > 0 ? (
          <span className="count">
            {list.items.length}
            {list.hasNextPage ? "+" : ""} {list.items.length === 1 ? "snapshot" : "snapshots"}
          </span>
        ) : null}
      </CardHeader>
      {list.isError ? (
        <div className="card-body">
          <FormAlert message={formErrorOf(list.error, []).summary} />
        </div>
      ) : list.items.length === 0 ? (
        <EmptyState icon={<ListIcon />} title={list.isPending ? "Loading snapshots…" : "Nothing recorded yet"}>
          Balances you record here, and those your bank integrations or statement imports bring in, are listed here.
        </EmptyState>
      ) : (
        <ScrollRegion label="Recent snapshots, scrollable">
          <DataTable columns={columns} items={list.items} />
        </ScrollRegion>
      )}
      <LoadMore list={list} />
    </section>
  );
}

export function CashView({ defaultCurrency }: { defaultCurrency: string }) {
  const scopes = useScopes();
  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <CardSection
        headingId="record-balance-heading"
        title="Record a balance"
        description="What a bank account holds, for a business or for you. A negative amount is an overdraft."
      >
        <div className="card-body form-narrow">
          <RecordCashForm currency={defaultCurrency} scopes={scopes} headingId="record-balance-heading" />
        </div>
      </CardSection>
      <LatestBalances scopes={scopes} />
      <RecentSnapshots scopes={scopes} />
    </div>
  );
}
