"use client";
// The owner's connections, newest first: provider, name, business, status, the provider
// account, when a delivery or sync last reached it, a Sync button for the providers the
// service pulls from (the generic webhook only receives) and, for a platform account, a way to
// replace its signing secret.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { formErrorOf } from "@/lib/trpc/errors";
import type { TIntegration } from "@/server/integrations/integration.schema";
import { ListCard } from "../panel/list-card";
import { useCursorList } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { createdColumn, DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { PlugIcon, RepeatIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";
import { describeSync, type TCatalogEntry } from "./catalog";
import { RelativeTime } from "./relative-time";
import { ReplaceSecretDialog } from "./replace-secret-dialog";
import type { TBusinessOption } from "./use-businesses";

const PAGE_SIZE = 25;

type TSyncNotice = { integrationId: string; text: string };

/** Connections the service can pull from on demand (not the push-only generic webhook or imports). */
function canSync(integration: TIntegration, catalog: TCatalogEntry[]): boolean {
  const entry = catalog.find((e) => e.provider === integration.provider);
  return integration.status === "active" && (entry?.connect === "account" || entry?.connect === "oauth");
}

/** Active platform connections, whose deliveries verify with a signing secret the owner gave (and may replace). */
function canReplaceSecret(integration: TIntegration, catalog: TCatalogEntry[]): boolean {
  const entry = catalog.find((e) => e.provider === integration.provider);
  return integration.status === "active" && Boolean(entry?.signing_secret_location);
}

/** Connections the owner can disconnect (not the statement import's own, not one already disconnected). */
function canDisconnect(integration: TIntegration): boolean {
  return integration.status !== "disconnected" && integration.provider !== "manual_import";
}

export function ConnectionsCard(props: { catalog: TCatalogEntry[]; businesses: TBusinessOption[] }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<TSyncNotice | null>(null);
  const [replacing, setReplacing] = useState<TIntegration | null>(null);
  const input = { limit: PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.integrations.list.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.integrations.list.query({ ...input, cursor }, { signal }),
  });

  // Disconnecting takes two clicks: "Disconnect", then "Confirm" (its webhooks stop for good).
  const [confirming, setConfirming] = useState<string | null>(null);
  const disconnect = useMutation(
    trpc.integrations.disconnect.mutationOptions({
      onSuccess: async ({ data }) => {
        setError(null);
        setConfirming(null);
        setNotice({
          integrationId: data.id,
          text: `${data.name} was disconnected: its webhooks are refused from now on; its events are kept.`,
        });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.integrations.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.integrations.catalog.pathKey() }),
        ]);
      },
      onError: (cause) => {
        setNotice(null);
        setConfirming(null);
        setError(formErrorOf(cause, []).summary);
      },
    }),
  );

  const providerName = (provider: string) => props.catalog.find((e) => e.provider === provider)?.name ?? provider;

  const sync = useMutation(
    trpc.integrations.sync.mutationOptions({
      onSuccess: async ({ data }) => {
        setError(null);
        const integration = list.items.find((i) => i.id === data.integration_id);
        const label = integration ? integration.name : "The connection";
        setNotice({ integrationId: data.integration_id, text: `${label} synced: ${describeSync(data)}.` });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.integrations.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.alerts.recent.pathKey() }),
        ]);
      },
      onError: (cause) => {
        setNotice(null);
        setError(formErrorOf(cause, []).summary);
      },
    }),
  );

  const columns: TColumn<TIntegration>[] = [
    {
      header: "Provider",
      cell: (i) => (
        <>
          <span className="cell-strong">{providerName(i.provider)}</span>
          <span className="cell-sub">{i.kind}</span>
        </>
      ),
    },
    { header: "Name", cell: (i) => i.name },
    {
      header: "Business",
      cell: (i) =>
        i.business_id ? (
          (props.businesses.find((b) => b.id === i.business_id)?.name ?? <span className="muted">Business</span>)
        ) : (
          <span className="muted">—</span>
        ),
    },
    { header: "Status", cell: (i) => <StatusPill status={i.status} /> },
    {
      header: "Account",
      cellClassName: "mono",
      cell: (i) => i.account_id ?? <span className="muted">—</span>,
    },
    {
      header: "Last sync",
      headerClassName: "cell-date",
      cellClassName: "cell-date",
      cell: (i) => (
        <span data-testid="last-sync">
          {i.last_sync_at ? <RelativeTime iso={i.last_sync_at} /> : <span className="muted">never</span>}
        </span>
      ),
    },
    createdColumn(),
    {
      header: <span className="visually-hidden">Actions</span>,
      headerClassName: "cell-right",
      cellClassName: "cell-right",
      cell: (i) => (
        <div className="connection-actions">
          {canSync(i, props.catalog) ? (
            <ActionButton
              look="button-secondary"
              pending={sync.isPending && sync.variables?.integration_id === i.id}
              disabled={sync.isPending}
              icon={<RepeatIcon />}
              onClick={() => sync.mutate({ provider: i.provider, integration_id: i.id })}
            >
              Sync<span className="visually-hidden"> {i.name}</span>
            </ActionButton>
          ) : null}
          {canReplaceSecret(i, props.catalog) ? (
            <button type="button" className="button button-secondary" onClick={() => setReplacing(i)}>
              Replace secret<span className="visually-hidden"> of {i.name}</span>
            </button>
          ) : null}
          {canDisconnect(i) && confirming !== i.id ? (
            <button type="button" className="button button-secondary" onClick={() => setConfirming(i.id)}>
              Disconnect<span className="visually-hidden"> {i.name}</span>
            </button>
          ) : null}
          {canDisconnect(i) && confirming === i.id ? (
            <>
              <ActionButton look="button-danger" pending={disconnect.isPending} onClick={() => disconnect.mutate({ id: i.id })}>
                Confirm disconnect<span className="visually-hidden"> {i.name}</span>
              </ActionButton>
              <button type="button" className="button button-secondary" onClick={() => setConfirming(null)}>
                Cancel
              </button>
            </>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <ListCard
      headingId="connections-heading"
      title="Connections"
      noun={["connection", "connections"]}
      list={list}
      empty={
        <EmptyState icon={<PlugIcon />} title={list.isPending ? "Loading connections…" : "No connections yet"}>
          Connect a generic webhook or a provider account above; each one is listed here with when it last synced.
        </EmptyState>
      }
    >
      {error || notice ? (
        <div className="card-body card-body-tight">
          <FormAlert message={error} />
          {notice && !error ? (
            <p className="notice" role="status">
              {notice.text}
            </p>
          ) : null}
        </div>
      ) : null}
      <DataTable
        scroll
        compact
        items={list.items}
        columns={columns}
        rowProps={(i) => ({ "data-integration-id": i.id, ...(notice?.integrationId === i.id ? { "data-current": true } : {}) })}
      />
      <ReplaceSecretDialog
        integration={replacing}
        entry={props.catalog.find((e) => e.provider === replacing?.provider)}
        onReplaced={(integration) => {
          setError(null);
          setNotice({
            integrationId: integration.id,
            text: `The signing secret of ${integration.name} was replaced: only deliveries signed with the new one reach it.`,
          });
        }}
        onClose={() => setReplacing(null)}
      />
    </ListCard>
  );
}
