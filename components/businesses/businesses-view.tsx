"use client";
// The owner's businesses, newest first, a page at a time ("Load more" follows the list's
// cursor), beside the "New business" form.
import Link from "next/link";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TBusiness } from "@/server/businesses/business.schema";
import type { TPage } from "@/server/shared/pagination";
import { ListCard } from "../panel/list-card";
import { useCursorList } from "../panel/use-cursor-list";
import { CardSection } from "../ui/card";
import { createdColumn, DataTable, type TColumn } from "../ui/data-table";
import { BuildingIcon } from "../ui/icons";
import { EmptyState } from "../ui/empty-state";
import { StatusPill } from "../ui/status-pill";
import { NewBusinessForm } from "./new-business-form";
import { RecordActions } from "./record-actions";
import { BUSINESSES_PAGE_SIZE } from "../panel/page-size";

export type TBusinessPage = { data: TBusiness[]; page: TPage };

const COLUMNS: TColumn<TBusiness>[] = [
  {
    header: "Name",
    cellClassName: "cell-name",
    cell: (business) => (
      <>
        <Link href={`/businesses/${business.id}`}>{business.name}</Link>
        {business.status === "archived" ? (
          <>
            {" "}
            <StatusPill status="archived" />
          </>
        ) : null}
        <RecordActions kind="business" record={business} />
      </>
    ),
  },
  { header: "Currency", cell: (business) => <span className="badge">{business.currency}</span> },
  createdColumn(),
];

export function BusinessesView({ initialPage, defaultCurrency }: { initialPage: TBusinessPage; defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: BUSINESSES_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.businesses.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.businesses.find.query({ ...input, cursor }, { signal }),
    initialPage,
  });

  return (
    <div className="split">
      <ListCard
        headingId="businesses-heading"
        title="All businesses"
        noun={["business", "businesses"]}
        list={list}
        empty={
          <EmptyState icon={<BuildingIcon />} title="No businesses yet">
            Create your first business with the form. Expenses, revenues and projects are kept per business.
          </EmptyState>
        }
      >
        <DataTable columns={COLUMNS} items={list.items} scroll />
      </ListCard>
      <CardSection
        headingId="new-business-heading"
        title="New business"
        description="Each business keeps its own books and projects."
      >
        <div className="card-body">
          <NewBusinessForm defaultCurrency={defaultCurrency} />
        </div>
      </CardSection>
    </div>
  );
}
