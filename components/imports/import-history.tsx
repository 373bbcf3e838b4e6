"use client";
// Import history (issue 32): every statement the owner uploaded, newest first, with its status
// and counts (GET /v1/imports), and Revert for a confirmed one: a confirmation that says what will
// be voided and what stays, then POST /v1/imports/{id}/revert and what it did.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TImportListItem, TImportRevertResult } from "@/server/imports/import.schema";
import { useBusinesses } from "../integrations/use-businesses";
import { ListCard } from "../panel/list-card";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { CardSection } from "../ui/card";
import { Confirm } from "../ui/confirm";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { HistoryIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";

const PAGE_SIZE = 20;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What an import wrote (or would write): its counts in one line. */
function Counts({ item }: { item: TImportListItem }) {
  const written = item.status === "confirmed" || item.status === "reverted";
  return (
    <>
      <span className="cell-strong">
        {plural(item.inserted, "event", "events")} {written ? "booked" : "to book"}
      </span>
      <span className="cell-sub">
        {item.reconciled ? `${item.reconciled} matched to your entries · ` : ""}
        {item.deduped ? `${item.deduped} already imported · ` : ""}
        {plural(item.rejected, "row rejected", "rows rejected")} · {plural(item.total_rows, "row", "rows")} in the file
      </span>
    </>
  );
}

function columns(
  businessName: (id: string) => string,
  presetName: (id: string) => string,
  reverting: string | null,
  startRevert: (id: string) => void,
): TColumn<TImportListItem>[] {
  return [
    {
      header: "Statement",
      cellClassName: "cell-description",
      cell: (item) => (
        <>
          <span className="cell-strong">{item.file_name ?? "statement"}</span>
          <span className="cell-sub">
            {businessName(item.business_id)} · {presetName(item.format)}
          </span>
          <span className="cell-sub">
            uploaded <DateTime iso={item.created_at} withTime />
            {item.reverted_at ? (
              <>
                , reverted <DateTime iso={item.reverted_at} />
              </>
            ) : null}
          </span>
        </>
      ),
    },
    { header: "Rows", cellClassName: "cell-description", cell: (item) => <Counts item={item} /> },
    {
      header: "Status",
      cell: (item) => <StatusPill status={item.status} />,
    },
    {
      header: <span className="visually-hidden">Actions</span>,
      headerClassName: "cell-right",
      cellClassName: "cell-right",
      cell: (item) =>
        item.status === "confirmed" ? (
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={reverting === item.id}
            aria-label={`Revert ${item.file_name ?? "statement"}`}
            onClick={() => startRevert(item.id)}
          >
            Revert…
          </button>
        ) : null,
    },
  ];
}

/** What a revert did, in one sentence. */
function revertedNotice(item: TImportListItem, result: TImportRevertResult): string {
  const parts = [`${item.file_name ?? "The statement"} was reverted: ${plural(result.voided, "event", "events")} voided`];
  if (result.skipped_count)
    parts.push(`${plural(result.skipped_count, "line", "lines")} you had corrected or voided left as they are`);
  if (result.subscriptions_kept.length)
    parts.push(`${plural(result.subscriptions_kept.length, "subscription", "subscriptions")} it created kept`);
  return `${parts.join("; ")}.`;
}

export function ImportHistory() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const { all: businesses } = useBusinesses();
  const [revertingId, setRevertingId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const input = { limit: PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.imports.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.imports.find.query({ ...input, cursor }, { signal }),
  });
  const reverting = list.items.find((item) => item.id === revertingId) ?? null;
  const businessName = (id: string) => businesses.find((b) => b.id === id)?.name ?? "Business";
  // The wizard reads the same list (one query).
  const presets = useQuery(trpc.imports.presets.queryOptions({}));
  const presetName = (id: string) => presets.data?.data.find((p) => p.id === id)?.name ?? id;

  return (
    <>
      {reverting ? (
        <RevertCard
          key={reverting.id}
          item={reverting}
          businessName={businessName(reverting.business_id)}
          onDone={(message) => {
            setRevertingId(null);
            setNotice(message);
          }}
          onCancel={() => setRevertingId(null)}
        />
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <ListCard
        headingId="import-history-heading"
        title="Import history"
        description="Every statement you uploaded, newest first. A wrong import can be reverted: its events are voided."
        noun={["import", "imports"]}
        list={list}
        empty={
          list.isError ? (
            <div className="card-body">
              <FormAlert message={formErrorOf(list.error, []).summary} />
            </div>
          ) : (
            <EmptyState icon={<HistoryIcon />} title={list.isPending ? "Loading imports…" : "No imports yet"}>
              Statements you upload above are listed here with what they booked. Start with a CSV export of your bank account: the
              preview shows every row before anything is written.
            </EmptyState>
          )
        }
      >
        <DataTable
          scroll
          columns={columns(businessName, presetName, revertingId, (id) => {
            setNotice(null);
            setRevertingId(id);
          })}
          items={list.items}
          rowProps={(item) => (item.id === revertingId ? { "data-current": true } : {})}
        />
      </ListCard>
    </>
  );
}

/** "Revert this import?": what will be voided, what stays, and the button that does it. */
function RevertCard(props: {
  item: TImportListItem;
  businessName: string;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { item } = props;
  const [error, setError] = useState<string | null>(null);
  const revert = useMutation(
    trpc.imports.revert.mutationOptions({
      onSuccess: async ({ data }) => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.imports.find.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.ledger.pathKey() }),
        ]);
        props.onDone(revertedNotice(item, data));
      },
      onError: (cause) => setError(formErrorOf(cause, []).summary),
    }),
  );
  return (
    <CardSection
      headingId="revert-import-heading"
      title={`Revert “${item.file_name ?? "statement"}”?`}
      description={
        <>
          {props.businessName} · confirmed {item.confirmed_at ? <DateTime iso={item.confirmed_at} withTime /> : null}
        </>
      }
    >
      <div className="card-body">
        <FormAlert message={error} />
        <Confirm
          label="Confirm revert"
          action={
            <ActionButton look="button-danger" pending={revert.isPending} onClick={() => revert.mutate({ id: item.id })}>
              Revert import
            </ActionButton>
          }
          onCancel={props.onCancel}
        >
          <ul className="revert-effects">
            <li>
              Every event this import booked ({item.inserted}) is voided: it stays listed, struck through, and no longer counts in
              any total.
            </li>
            {item.reconciled ? (
              <li>
                {plural(item.reconciled, "line was", "lines were")} matched to entries you already had: those entries stay and
                keep counting.
              </li>
            ) : null}
            <li>Lines you corrected or voided since the import are left as they are.</li>
            <li>Subscriptions the import created stay; cancel them on the Subscriptions page if they were wrong.</li>
            <li>The same statement can be imported again afterwards, into the right business or with another mapping.</li>
          </ul>
        </Confirm>
      </div>
    </CardSection>
  );
}
