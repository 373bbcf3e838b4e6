"use client";
// What can be connected: every provider of the catalog, whether it can be connected in this
// version, what kind of source it is, and how many of it the owner has connected.
import { CardHeader } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { PlugIcon } from "../ui/icons";
import type { TCatalogEntry } from "./catalog";

export function CatalogCard(props: { entries: TCatalogEntry[]; isPending: boolean; isError: boolean }) {
  const available = props.entries.filter((e) => e.availability === "available").length;
  return (
    <section className="card" aria-labelledby="catalog-heading">
      <CardHeader headingId="catalog-heading" title="Providers" description="Sources whose events and signals reach your books.">
        {props.entries.length > 0 ? (
          <span className="count">
            {available} of {props.entries.length} available
          </span>
        ) : null}
      </CardHeader>
      {props.isError ? (
        <div className="card-body">
          <FormAlert message="The providers could not be loaded. Reload the page to try again." />
        </div>
      ) : props.entries.length === 0 ? (
        <EmptyState icon={<PlugIcon />} title={props.isPending ? "Loading providers…" : "No providers"}>
          Payment, ad and billing platforms, bank providers and your own systems through a signed webhook.
        </EmptyState>
      ) : (
        <DataTable
          scroll
          stack
          compact
          items={props.entries.map((entry) => ({ ...entry, id: entry.provider }))}
          rowProps={(entry) => ({ "data-provider": entry.provider })}
          columns={[
            {
              header: "Provider",
              cell: (entry) => (
                <>
                  <span className="cell-strong">{entry.name}</span>
                  <span className="cell-sub">{entry.description}</span>
                </>
              ),
            },
            { header: "Kind", cell: (entry) => <span className="badge">{entry.kind}</span> },
            {
              header: "Availability",
              cell: (entry) => (
                <span className={`pill ${entry.availability === "available" ? "pill-success" : "pill-neutral"}`}>
                  {entry.availability === "available" ? "available" : "coming soon"}
                </span>
              ),
            },
            {
              header: "Connected",
              headerClassName: "cell-right",
              cellClassName: "cell-right mono",
              cell: (entry) => (
                <>
                  {entry.connected > 0 ? entry.connected : <span className="muted">0</span>}
                  {entry.pending > 0 ? <span className="cell-sub">{entry.pending} pending</span> : null}
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
