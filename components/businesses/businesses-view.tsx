"use client";
// The owner's businesses, newest first, a page at a time ("Load more" follows the list's
// cursor), beside the "New business" form.
import Link from "next/link";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TBusiness } from "@/server/businesses/business.schema";
import type { TPage } from "@/server/shared/pagination";
import { DateTime } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { BuildingIcon } from "../ui/icons";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { NewBusinessForm } from "./new-business-form";
import { BUSINESSES_PAGE_SIZE } from "../panel/page-size";

export type TBusinessPage = { data: TBusiness[]; page: TPage };

export function BusinessesView({ initialPage, defaultCurrency }: { initialPage: TBusinessPage; defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const input = { limit: BUSINESSES_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.businesses.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.businesses.find.query({ ...input, cursor }, { signal }),
    initialPage,
  });
  const businesses = list.items;

  return (
    <div className="split">
      <section className="card" aria-labelledby="businesses-heading">
        <div className="card-header">
          <h2 id="businesses-heading">All businesses</h2>
          {businesses.length > 0 ? (
            <span className="count">
              {businesses.length}
              {list.hasNextPage ? "+" : ""} {businesses.length === 1 ? "business" : "businesses"}
            </span>
          ) : null}
        </div>
        {businesses.length === 0 ? (
          <EmptyState icon={<BuildingIcon />} title="No businesses yet">
            Create your first business with the form. Expenses, revenues and projects are kept per business.
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Currency</th>
                <th scope="col" className="cell-right">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {businesses.map((business) => (
                <tr key={business.id}>
                  <td className="cell-name">
                    <Link href={`/businesses/${business.id}`}>{business.name}</Link>
                  </td>
                  <td>
                    <span className="badge">{business.currency}</span>
                  </td>
                  <td className="cell-date cell-right">
                    <DateTime iso={business.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list.isFetchNextPageError ? (
          <div className="card-body">
            <FormAlert message="The next page could not be loaded. Try again." />
          </div>
        ) : null}
        {list.hasNextPage ? (
          <div className="card-footer">
            <button
              type="button"
              className="button button-secondary"
              onClick={() => void list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? <span className="spinner" aria-hidden="true" /> : null}
              {list.isFetchingNextPage ? "Loading…" : "Load more"}
            </button>
          </div>
        ) : null}
      </section>
      <section className="card" aria-labelledby="new-business-heading">
        <div className="card-header">
          <div>
            <h2 id="new-business-heading">New business</h2>
            <p>Each business keeps its own books and projects.</p>
          </div>
        </div>
        <div className="card-body">
          <NewBusinessForm defaultCurrency={defaultCurrency} />
        </div>
      </section>
    </div>
  );
}
