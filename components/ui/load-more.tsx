"use client";
// The footer of a cursor-paged list: a "Load more" button while there is a next page, and a
// calm message when the next page failed.
import { FormAlert } from "./field";

export function LoadMore(props: { hasNextPage: boolean; isFetchingNextPage: boolean; isError: boolean; onLoadMore: () => void }) {
  return (
    <>
      {props.isError ? (
        <div className="card-body">
          <FormAlert message="The next page could not be loaded. Try again." />
        </div>
      ) : null}
      {props.hasNextPage ? (
        <div className="card-footer">
          <button
            type="button"
            className="button button-secondary"
            onClick={props.onLoadMore}
            disabled={props.isFetchingNextPage}
          >
            {props.isFetchingNextPage ? <span className="spinner" aria-hidden="true" /> : null}
            {props.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
    </>
  );
}
