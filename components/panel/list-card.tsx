"use client";
// A card holding one cursor-paged list: the heading with how many are shown ("12+ agents"
// while there are more pages), the empty state or the list, and the "Load more" footer.
import type { ReactNode } from "react";
import { CardHeader } from "../ui/card";
import { LoadMore, type TLoadMoreList } from "../ui/load-more";

export function ListCard(props: {
  headingId: string;
  title: string;
  /** A sentence under the title: what the list holds. */
  description?: ReactNode;
  /** The noun for the count: singular and plural. */
  noun: readonly [string, string];
  list: TLoadMoreList & { items: readonly unknown[] };
  /** Shown instead of the list while it is empty. */
  empty: ReactNode;
  children: ReactNode;
}) {
  const count = props.list.items.length;
  return (
    <section className="card" aria-labelledby={props.headingId}>
      <CardHeader headingId={props.headingId} title={props.title} description={props.description}>
        {count > 0 ? (
          <span className="count">
            {count}
            {props.list.hasNextPage ? "+" : ""} {count === 1 ? props.noun[0] : props.noun[1]}
          </span>
        ) : null}
      </CardHeader>
      {count === 0 ? props.empty : props.children}
      <LoadMore list={props.list} />
    </section>
  );
}
