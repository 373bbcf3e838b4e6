"use client";
// A cursor-paged list ("Load more") over one of the contract's list procedures.
//
// Not tRPC's `infiniteQueryOptions`: it asks for the first page with `cursor: null`, which the
// contract's `cursor` (a string or absent) refuses. The query key is still tRPC's own, so
// invalidating the procedure's `pathKey()` refreshes the list.
import { useInfiniteQuery, type QueryKey } from "@tanstack/react-query";
import type { TPage } from "@/server/shared/pagination";

export type TListPage<TItem> = { data: TItem[]; page: TPage };

export function useCursorList<TItem>(options: {
  queryKey: QueryKey;
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<TListPage<TItem>>;
  /** The first page, rendered on the server; without one the list loads in the browser. */
  initialPage?: TListPage<TItem> | null;
}) {
  const query = useInfiniteQuery({
    queryKey: options.queryKey,
    queryFn: ({ pageParam, signal }) => options.fetchPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.page.next_cursor ?? undefined,
    ...(options.initialPage ? { initialData: { pages: [options.initialPage], pageParams: [undefined] } } : {}),
  });
  return { ...query, items: query.data?.pages.flatMap((page) => page.data) ?? [] };
}
