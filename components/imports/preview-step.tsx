"use client";
// Step 3: the preview of an upload: what confirming would do (counts), every row with what
// will happen to it (a page at a time), the recurring charges found (ticked ones become
// subscriptions) and Confirm. A row matched to an entry the owner already has (made by hand, or
// an integration's) shows that entry, with a "Not the same" switch that books both (the confirm's
// keep_separate). An expired preview cannot be confirmed: upload it again.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatMinor } from "@/lib/money";
import { moneyDirection } from "@/lib/money-direction";
import { appCodeOf, formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TCreateImportResult, TImportPreviewRow, TImportResult } from "@/server/imports/import.schema";
import { usePreferences, DateTime } from "../panel/preferences";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { InboxIcon, RepeatIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import { CategoryCell, categoriesInput, editedRow, type TCategoryEdits, type TRowEdit } from "./category-cell";

type TProposal = TCreateImportResult["preview"]["proposals"][number];
type TRowItem = TImportPreviewRow & { id: string };

const ROW_TONES: Record<TImportPreviewRow["status"], string> = {
  new: "pill-success",
  already: "pill-neutral",
  reconciled: "pill-accent",
  rejected: "pill-danger",
};

const ROW_LABELS: Record<TImportPreviewRow["status"], string> = {
  new: "new",
  already: "already imported",
  reconciled: "reconciled",
  rejected: "rejected",
};

export function RowStatusPill({ status }: { status: TImportPreviewRow["status"] }) {
  return <span className={`pill ${ROW_TONES[status]}`}>{ROW_LABELS[status]}</span>;
}

/** A rejected row's cells as the file holds them, each named by its column. */
function RawCells({ cells, header }: { cells: readonly string[]; header: readonly string[] }) {
  return (
    <ul className="raw-cells" aria-label="Cells in the file">
      {cells.map((cell, index) => (
        <li key={index}>
          <span className="raw-cell-name">{header[index] || `Column ${index + 1}`}:</span>{" "}
          <span className="mono">{cell === "" ? "(empty)" : cell}</span>
        </li>
      ))}
    </ul>
  );
}

type TMatchedEvent = NonNullable<TImportPreviewRow["matched_event"]>;

/** The entry a reconciled row matches: when, how much and what, so the owner can tell whether it is the same money. */
function MatchedEntry({ entry, locale }: { entry: TMatchedEvent; locale: string }) {
  const out = moneyDirection(entry.type, null) === "out";
  const who = entry.source_type === "MANUAL" ? "your entry" : `the ${entry.source_type.replace(/_API$/, "").toLowerCase()} event`;
  return (
    <span className="cell-sub matched-entry">
      Same as {who} of <span className="mono">{entry.occurred_on}</span>,{" "}
      <span className="mono">{formatMinor(out ? -entry.amount_minor : entry.amount_minor, entry.currency, locale)}</span>
      {entry.description ? <>, “{entry.description}”</> : null}
    </span>
  );
}

const INTERVALS: Record<string, string> = { week: "weekly", month: "monthly", quarter: "quarterly", year: "yearly" };

function Stat({ label, value, tone }: { label: string; value: string | number; tone?: "danger" | "muted" }) {
  return (
    <div className={tone ? `import-stat import-stat-${tone}` : "import-stat"}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The listed rows: the upload's first page, then further pages from imports.get by offset. */
function useImportRows(created: TCreateImportResult) {
  const client = useTRPCClient();
  const { preview } = created;
  const listed = preview.total_rows - preview.skipped_transfers;
  const [rows, setRows] = useState<TImportPreviewRow[]>(preview.rows);
  const [nextOffset, setNextOffset] = useState<number | null>(preview.rows.length < listed ? preview.rows.length : null);
  const [fetching, setFetching] = useState(false);
  const [failed, setFailed] = useState(false);

  async function fetchNextPage() {
    if (nextOffset === null || fetching) return;
    setFetching(true);
    setFailed(false);
    try {
      const answer = await client.imports.get.query({ id: created.import_id, offset: nextOffset });
      setRows((current) => [...current, ...answer.data.rows]);
      setNextOffset(answer.data.page.next_offset);
    } catch {
      setFailed(true);
    } finally {
      setFetching(false);
    }
  }

  return {
    items: rows.map((row): TRowItem => ({ ...row, id: String(row.row) })),
    listed,
    list: {
      hasNextPage: nextOffset !== null,
      isFetchingNextPage: fetching,
      isFetchNextPageError: failed,
      fetchNextPage,
    },
  };
}

export function PreviewStep(props: {
  created: TCreateImportResult;
  /** The import's business: its active projects are offered per row. */
  businessId: string;
  /** The mapping is being changed: the rows shown are about to be replaced. */
  busy?: boolean;
  fileName: string;
  onConfirmed: (result: TImportResult) => void;
  onExpired: () => void;
  onStartOver: () => void;
}) {
  const trpc = useTRPC();
  const { locale } = usePreferences();
  const { created } = props;
  const { preview } = created;
  const rows = useImportRows(created);
  const [accepted, setAccepted] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const confirm = useMutation(trpc.imports.confirm.mutationOptions());
  const [categoryEdits, setCategoryEdits] = useState<TCategoryEdits>(new Map());
  // Rows matched to an entry that the owner says are other money: booked as new lines too.
  const [separate, setSeparate] = useState<ReadonlySet<number>>(new Set());
  const projectsQuery = useQuery(
    trpc.projects.find.queryOptions({ id: props.businessId, status: "active", limit: 200 }, { enabled: props.businessId !== "" }),
  );
  const projects = (projectsQuery.data?.data ?? []).map((project) => ({ id: project.id, name: project.name }));
  const editRow = (row: TImportPreviewRow, change: Partial<TRowEdit>) => {
    const externalId = row.external_id;
    if (!externalId) return;
    setCategoryEdits((current) => new Map(current).set(externalId, editedRow(row, current.get(externalId), change)));
  };

  function toggle(index: number, on: boolean) {
    setAccepted((current) => {
      const next = new Set(current);
      if (on) next.add(index);
      else next.delete(index);
      return next;
    });
  }

  function keepSeparate(row: number, on: boolean) {
    setSeparate((current) => {
      const next = new Set(current);
      if (on) next.add(row);
      else next.delete(row);
      return next;
    });
  }

  function submit() {
    setError(null);
    confirm.mutate(
      {
        id: created.import_id,
        accept_proposals: [...accepted].sort((a, b) => a - b),
        categories: categoriesInput(categoryEdits),
        ...(separate.size > 0 ? { keep_separate: [...separate].sort((a, b) => a - b) } : {}),
      },
      {
        onSuccess: (answer) => props.onConfirmed(answer.data),
        onError: (caught) => {
          if (appCodeOf(caught) === "state_conflict") {
            setExpired(true);
            setError("This preview has expired or was already confirmed: upload it again.");
          } else {
            setError(formErrorOf(caught, []).summary);
          }
        },
      },
    );
  }

  const nothingToImport = preview.would_insert === 0 && accepted.size === 0;
  const subscriptions = accepted.size;
  // Older previews have no count: the listed rows tell.
  const matched = (preview.would_reconcile ?? rows.items.filter((row) => row.status === "reconciled").length) - separate.size;

  return (
    <>
      <section className="card" aria-labelledby="import-summary-heading">
        <CardHeader
          headingId="import-summary-heading"
          title="Preview"
          description={
            <>
              <span className="mono">{props.fileName}</span> · confirm before <DateTime iso={created.expires_at} withTime />
            </>
          }
        />
        <dl className="import-stats" aria-label="Import counts">
          <Stat label="Rows in file" value={preview.total_rows} />
          <Stat label="Would insert" value={preview.would_insert} />
          <Stat label="Would dedupe" value={preview.would_dedupe} tone={preview.would_dedupe ? undefined : "muted"} />
          <Stat label="Match your entries" value={matched} tone={matched ? undefined : "muted"} />
          <Stat label="Rejected" value={preview.rejected_count} tone={preview.rejected_count ? "danger" : "muted"} />
          <Stat
            label="Skipped transfers"
            value={preview.skipped_transfers}
            tone={preview.skipped_transfers ? undefined : "muted"}
          />
          <Stat
            label="Unmapped columns"
            value={preview.unmapped_columns.length ? preview.unmapped_columns.join(", ") : "none"}
            tone={preview.unmapped_columns.length ? undefined : "muted"}
          />
        </dl>
      </section>

      <section className="card" aria-labelledby="import-rows-heading">
        <CardHeader headingId="import-rows-heading" title="Rows" description="What confirming does with each row of the file.">
          <span className="count">
            {rows.items.length < rows.listed ? `${rows.items.length} of ${rows.listed} rows` : `${rows.listed} rows`}
          </span>
        </CardHeader>
        {rows.items.length === 0 ? (
          <EmptyState icon={<InboxIcon />} title="No rows">
            The file has no rows to import{preview.skipped_transfers ? ": every row is a transfer between your own accounts" : ""}
            .
          </EmptyState>
        ) : (
          <DataTable
            scroll
            compact
            items={rows.items}
            rowProps={(row) => ({ "data-status": row.status })}
            columns={[
              { header: "#", cellClassName: "mono muted", cell: (row) => row.row },
              {
                header: "Date",
                cellClassName: "cell-date",
                cell: (row) => (
                  <span className="mono" style={{ whiteSpace: "nowrap" }}>
                    {row.occurred_on || "—"}
                  </span>
                ),
              },
              {
                header: "Description",
                cell: (row) => (
                  <>
                    <span className="cell-strong">{row.description || row.counterparty || "—"}</span>
                    {row.counterparty && row.description ? <span className="cell-sub">{row.counterparty}</span> : null}
                  </>
                ),
              },
              {
                header: "Amount",
                headerClassName: "cell-right",
                cellClassName: "cell-right mono",
                cell: (row) => (
                  <span style={{ whiteSpace: "nowrap" }}>
                    {row.currency ? formatMinor(row.amount_minor, row.currency, locale) : "—"}
                  </span>
                ),
              },
              {
                header: projects.length > 0 ? "Category and project" : "Category",
                cell: (row) => (
                  <CategoryCell
                    row={row}
                    edits={categoryEdits}
                    projects={projects}
                    onEdit={(_externalId, change) => editRow(row, change)}
                  />
                ),
              },
              {
                header: "Status",
                cell: (row) => (
                  <>
                    <RowStatusPill status={separate.has(row.row) ? "new" : row.status} />
                    {row.status === "reconciled" && row.matched_event ? (
                      <>
                        <MatchedEntry entry={row.matched_event} locale={locale} />
                        <label className="checkbox matched-switch">
                          <input
                            type="checkbox"
                            className="checkbox-input"
                            checked={separate.has(row.row)}
                            disabled={confirm.isPending || expired}
                            onChange={(event) => keepSeparate(row.row, event.target.checked)}
                          />
                          Not the same: book both
                        </label>
                      </>
                    ) : null}
                    {row.status === "rejected" && row.reject_reason ? (
                      <span className="cell-sub">{row.reject_reason}</span>
                    ) : null}
                    {row.status === "rejected" && row.raw ? <RawCells cells={row.raw} header={preview.header ?? []} /> : null}
                  </>
                ),
              },
            ]}
          />
        )}
        <LoadMore list={rows.list} />
      </section>

      <section className="card" aria-labelledby="import-proposals-heading">
        <CardHeader
          headingId="import-proposals-heading"
          title="Recurring charges"
          description="Charges that repeat in the statement. Tick the ones to record as subscriptions."
        >
          {preview.proposals.length > 0 ? (
            <span className="count">
              {subscriptions} of {preview.proposals.length} selected
            </span>
          ) : null}
        </CardHeader>
        {preview.proposals.length === 0 ? (
          <EmptyState icon={<RepeatIcon />} title="No recurring charges found">
            A charge needs at least three occurrences at a regular interval to be proposed as a subscription.
          </EmptyState>
        ) : (
          <DataTable
            scroll
            compact
            items={preview.proposals.map((proposal, index) => ({ ...proposal, id: String(index), index }))}
            columns={[
              {
                header: <span className="visually-hidden">Create subscription</span>,
                cell: (proposal: TProposal & { index: number }) => (
                  <input
                    type="checkbox"
                    className="checkbox-input"
                    aria-label={`Create subscription ${proposal.name}`}
                    checked={accepted.has(proposal.index)}
                    disabled={confirm.isPending || expired}
                    onChange={(event) => toggle(proposal.index, event.target.checked)}
                  />
                ),
              },
              {
                header: "Name",
                cell: (proposal) => (
                  <>
                    <span className="cell-strong">{proposal.name}</span>
                    {proposal.counterparty && proposal.counterparty !== proposal.name ? (
                      <span className="cell-sub">{proposal.counterparty}</span>
                    ) : null}
                  </>
                ),
              },
              {
                header: "Amount",
                headerClassName: "cell-right",
                cellClassName: "cell-right mono",
                cell: (proposal) => (
                  <span style={{ whiteSpace: "nowrap" }}>{formatMinor(proposal.amount_minor, proposal.currency, locale)}</span>
                ),
              },
              { header: "Interval", cell: (proposal) => INTERVALS[proposal.billing_interval] ?? proposal.billing_interval },
              {
                header: "Next charge",
                cellClassName: "cell-date",
                cell: (proposal) => <span className="mono">{proposal.next_charge_on}</span>,
              },
              { header: "Seen", headerClassName: "cell-right", cellClassName: "cell-right", cell: (p) => `${p.occurrences}×` },
              {
                header: "Confidence",
                headerClassName: "cell-right",
                cellClassName: "cell-right",
                cell: (proposal) => `${Math.round(proposal.confidence * 100)}%`,
              },
            ]}
          />
        )}
      </section>

      <section className="card" aria-labelledby="import-confirm-heading">
        <CardHeader
          headingId="import-confirm-heading"
          title="Confirm the import"
          description={
            <>
              Books {preview.would_insert} {preview.would_insert === 1 ? "row" : "rows"} as events
              {subscriptions > 0 ? ` and creates ${subscriptions} ${subscriptions === 1 ? "subscription" : "subscriptions"}` : ""}
              . Rows already imported are skipped
              {matched > 0
                ? `; ${matched} ${matched === 1 ? "row matches an entry" : "rows match entries"} you already have and will not count twice`
                : ""}
              .
            </>
          }
        />
        <div className="card-body form">
          <FormAlert message={error} />
          <div className="form-actions">
            {expired ? (
              <button type="button" className="button button-primary" onClick={props.onExpired}>
                Upload it again
              </button>
            ) : (
              <ActionButton
                look="button-primary"
                pending={confirm.isPending}
                disabled={confirm.isPending || nothingToImport || props.busy}
                onClick={submit}
              >
                {confirm.isPending ? "Confirming…" : "Confirm import"}
              </ActionButton>
            )}
            <button type="button" className="button button-secondary" onClick={props.onStartOver} disabled={confirm.isPending}>
              Start over
            </button>
          </div>
        </div>
      </section>
    </>
  );
}
