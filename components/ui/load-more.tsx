"use client";
// The footer of a cursor-paged list: a "Load more" button while there is a next page, and a
// calm message when the next page failed.
import { FormAlert } from "./field";

/** What the footer needs of a cursor-paged query (useCursorList's answer fits). */
export type TLoadMoreList = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
};

export function LoadMore({ list }: { list: TLoadMoreList }) {
  return (
    <>
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
    </>
  );
}
