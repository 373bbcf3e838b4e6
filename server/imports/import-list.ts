// GET /v1/imports (additive, issue 32; pinned-wave3 §1.2): the owner's imports, newest first
// (created_at, then id), cursor-paginated like every list, each with its counts: what the
// confirm wrote (confirmed and reverted imports, from its stored answer) or what it would write
// (previews). One query per page; the counts are read out of the stored JSON in SQL, so a page
// never loads the summaries' rejection lists. Imports stored before the reconciled count was
// kept get it counted from their preview rows (only those rows' pages are read).
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { decodeCursor, toPage, type TPage, type TPageQuery } from "../shared/pagination";
import type { TImportListItem, TImportStatus } from "./import.schema";
import { statusOf } from "./import-store";

export type TFindImportsQuery = TPageQuery & { business_id?: string; status?: TImportStatus };

type TListRow = {
  id: string;
  business_id: string;
  project_id: string | null;
  file_name: string | null;
  preset: string;
  status: string;
  expires_at: Date;
  total_rows: number;
  inserted: number;
  deduped: number;
  reconciled: number;
  rejected: number;
  createdAt: Date;
  confirmed_at: Date | null;
  reverted_at: Date | null;
};

/** The status filter in SQL (expired is a preview past expires_at). */
function statusFilter(status: TImportStatus | undefined, now: Date): Prisma.Sql {
  switch (status) {
    case undefined:
      return Prisma.empty;
    case "previewed":
      return Prisma.sql`AND im.status = 'previewed' AND im.expires_at > ${now}`;
    case "expired":
      return Prisma.sql`AND im.status = 'previewed' AND im.expires_at <= ${now}`;
    default:
      return Prisma.sql`AND im.status = ${status}`;
  }
}

export async function findImports(
  db: TDbOrTx,
  ownerId: string,
  query: TFindImportsQuery,
  now: Date = new Date(),
): Promise<{ data: TImportListItem[]; page: TPage }> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db.$queryRaw<TListRow[]>`
    SELECT im.id::text AS id, im.business_id::text AS business_id, im.project_id::text AS project_id, im.file_name,
           im.preset, im.status, im.expires_at, im.total_rows, im.created_at AS "createdAt", im.confirmed_at, im.reverted_at,
           CASE WHEN im.result IS NULL THEN (im.summary->>'would_insert')::int ELSE (im.result->>'inserted')::int END AS inserted,
           CASE WHEN im.result IS NULL THEN (im.summary->>'would_dedupe')::int ELSE (im.result->>'deduped')::int END AS deduped,
           CASE WHEN im.result IS NULL THEN (im.summary->>'rejected_count')::int
                ELSE jsonb_array_length(im.result->'rejected') END AS rejected,
           COALESCE(CASE WHEN im.result IS NULL THEN (im.summary->>'would_reconcile')::int ELSE (im.result->>'reconciled')::int END,
                    (SELECT count(*)::int FROM import_row_pages p CROSS JOIN LATERAL jsonb_array_elements(p.rows) AS r
                      WHERE p.import_id = im.id AND r->>'s' = 'r')) AS reconciled
      FROM imports im
     WHERE im.owner_id = ${ownerId}::uuid
       ${query.business_id ? Prisma.sql`AND im.business_id = ${query.business_id}::uuid` : Prisma.empty}
       ${statusFilter(query.status, now)}
       ${after ? Prisma.sql`AND (im.created_at, im.id) < (${after.createdAt}, ${after.id}::uuid)` : Prisma.empty}
     ORDER BY im.created_at DESC, im.id DESC
     LIMIT ${query.limit + 1}`;
  const { rows: kept, page } = toPage(rows, query.limit);
  return {
    data: kept.map((row) => ({
      id: row.id,
      business_id: row.business_id,
      project_id: row.project_id,
      file_name: row.file_name,
      format: row.preset,
      status: statusOf({ status: row.status, expiresAt: row.expires_at }, now),
      total_rows: row.total_rows,
      inserted: row.inserted,
      deduped: row.deduped,
      reconciled: row.reconciled,
      rejected: row.rejected,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expires_at.toISOString(),
      confirmed_at: row.confirmed_at?.toISOString() ?? null,
      reverted_at: row.reverted_at?.toISOString() ?? null,
    })),
    page,
  };
}
