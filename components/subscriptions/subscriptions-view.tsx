"use client";
// The owner's subscriptions, newest first, beside the "New subscription" form; choosing one
// opens its allocation editor under the list.
import { useState } from "react";
import { formatMinor } from "@/lib/money";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TSubscription } from "@/server/subscriptions/subscription.schema";
import { ScopeCell, scopeName, useScopes, type TScopes } from "../events/scopes";
import { ListCard } from "../panel/list-card";
import { useCursorList } from "../panel/use-cursor-list";
import { CardSection } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { RepeatIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";
import { AllocationEditor } from "./allocation-editor";
import { bpsToPercent } from "./allocation-shares";
import { NewSubscriptionForm } from "./new-subscription-form";

const PAGE_SIZE = 25;

function columns(scopes: TScopes, selectedId: string | null, select: (id: string | null) => void): TColumn<TSubscription>[] {
  return [
    {
      header: "Name",
      cell: (s) => (
        <>
          <span className="cell-strong">{s.name}</span>
          {s.allocations.length > 0 ? (
            <span className="cell-sub" style={{ whiteSpace: "nowrap" }}>
              split {s.allocations.map((a) => `${bpsToPercent(a.share_bps)} %`).join(" / ")}
            </span>
          ) : null}
        </>
      ),
    },
    { header: "Scope", cell: (s) => <ScopeCell scopes={scopes} record={s} /> },
    {
      header: "Amount",
      headerClassName: "cell-right",
      cellClassName: "cell-right mono",
      cell: (s) => (
        <>
          <span style={{ whiteSpace: "nowrap" }}>
            {formatMinor(s.amount_minor, s.currency)} / {s.billing_interval}
          </span>
          {s.currency !== s.base_currency && s.base_amount_minor !== null ? (
            <span className="cell-sub">≈ {formatMinor(s.base_amount_minor, s.base_currency)}</span>
          ) : null}
        </>
      ),
    },
    {
      header: "Next charge",
      cellClassName: "cell-date mono",
      cell: (s) => <span style={{ whiteSpace: "nowrap" }}>{s.next_charge_on}</span>,
    },
    { header: "Status", cell: (s) => <StatusPill status={s.status} /> },
    {
      header: <span className="visually-hidden">Actions</span>,
      headerClassName: "cell-right",
      cellClassName: "cell-right",
      cell: (s) =>
        s.business_id ? (
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={selectedId === s.id}
            aria-label={`Allocate ${s.name}`}
            onClick={() => select(selectedId === s.id ? null : s.id)}
          >
            {selectedId === s.id ? "Close" : "Allocate"}
          </button>
        ) : null,
    },
  ];
}

export function SubscriptionsView({ defaultCurrency }: { defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopes = useScopes();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const input = { limit: PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.subscriptions.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.subscriptions.find.query({ ...input, cursor }, { signal }),
  });
  const selected = list.items.find((s) => s.id === selectedId) ?? null;

  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <CardSection
        headingId="new-subscription-heading"
        title="New subscription"
        description="A recurring cost of a business, a project or yours."
      >
        <div className="card-body">
          <NewSubscriptionForm scopes={scopes} defaultCurrency={defaultCurrency} />
        </div>
      </CardSection>
      <ListCard
        headingId="subscriptions-heading"
        title="Subscriptions"
        noun={["subscription", "subscriptions"]}
        list={list}
        empty={
          <EmptyState icon={<RepeatIcon />} title={list.isPending ? "Loading subscriptions…" : "No subscriptions yet"}>
            Add the tools and services you pay for regularly with the form.
          </EmptyState>
        }
      >
        <DataTable
          columns={columns(scopes, selectedId, setSelectedId)}
          items={list.items}
          scroll

          rowProps={(s) => (s.id === selectedId ? { "data-current": true } : {})}
        />
      </ListCard>
      {selected ? (
        <CardSection
          headingId="allocation-heading"
          title={`Allocation of ${selected.name}`}
          description={`Split ${formatMinor(selected.amount_minor, selected.currency)} per ${selected.billing_interval} over the projects of ${scopeName(scopes, { ...selected, project_id: null })}.`}
        >
          <div className="card-body">
            <AllocationEditor key={selected.id} subscription={selected} scopes={scopes} />
          </div>
        </CardSection>
      ) : null}
    </div>
  );
}
