// Walking a cursor-paged list (contract "Pagination") the way a client does, checking every page.
import { expect } from "vitest";
import type { TApiResponse, TTestApi } from "./api";

/**
 * Follows `next_cursor` from the first page of `path` with `limit` rows a page. Each page must
 * answer 200 with at most `limit` rows and `has_more` exactly when there is a next cursor.
 * Answers the ids of every row, in the order the pages gave them.
 */
export async function walkPages(
  api: TTestApi,
  path: string,
  options: { limit?: number; token?: string } = {},
): Promise<string[]> {
  const limit = options.limit ?? 2;
  const separator = path.includes("?") ? "&" : "?";
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages === 0 || cursor; pages++) {
    if (pages >= 500) throw new Error(`${path}: more than 500 pages`);
    const url = `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const response: TApiResponse = await api.call("GET", url, { token: options.token });
    expect(response.status, `${url}: ${response.text}`).toBe(200);
    expect(response.body.data.length).toBeLessThanOrEqual(limit);
    expect(response.body.page.has_more).toBe(response.body.page.next_cursor !== null);
    seen.push(...response.body.data.map((row: { id: string }) => row.id));
    cursor = response.body.page.next_cursor;
  }
  return seen;
}
