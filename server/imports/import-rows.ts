// How preview rows are kept: 500 per ImportRowPage, each row a compact JSON object (short keys,
// absent fields omitted), so a 100,000-row preview writes ~200 rows of import_row_pages.
import { z } from "zod";
import { ZImportMatchedEvent, type TImportPreviewRow, type TImportRowStatus } from "./import.schema";

const STATUS_CODES: Record<TImportRowStatus, string> = { new: "n", already: "a", reconciled: "r", rejected: "x" };
const STATUS_OF: Record<string, TImportRowStatus> = { n: "new", a: "already", r: "reconciled", x: "rejected" };

/** The event a reconciled row matches, as the preview saw it (shown beside the row; stored as the API shows it). */
export type TMatchedEntry = z.infer<typeof ZImportMatchedEvent>;

/** A stored row. Amount signed (negative = money out). */
export type TStoredRow = {
  /** row number */ n: number;
  /** status code */ s: string;
  /** external_id */ x?: string;
  /** amount_minor (signed) */ a?: number;
  /** currency */ c?: string;
  /** occurred_on */ d?: string;
  /** description */ t?: string;
  /** counterparty */ p?: string;
  /** counterparty account */ q?: string;
  /** category */ g?: string;
  /** project_id (from a category rule) */ j?: string;
  /** reference */ f?: string;
  /** matched_event_id */ m?: string;
  /** the matched event (reconciled rows) */ k?: TMatchedEntry;
  /** reject_reason */ e?: string;
  /** raw cells (rejected rows) */ r?: string[];
  /** the owner's account */ o?: string;
};

/** A stored row as read back (import_row_pages.rows is a list of them). */
export const ZStoredRow = z.object({
  n: z.number().int(),
  s: z.string(),
  x: z.string().optional(),
  a: z.number().int().optional(),
  c: z.string().optional(),
  d: z.string().optional(),
  t: z.string().optional(),
  p: z.string().optional(),
  q: z.string().optional(),
  g: z.string().optional(),
  j: z.string().optional(),
  f: z.string().optional(),
  m: z.string().optional(),
  k: ZImportMatchedEvent.optional(),
  e: z.string().optional(),
  r: z.array(z.string()).optional(),
  o: z.string().optional(),
}) satisfies z.ZodType<TStoredRow>;

export type TRowData = {
  row: number;
  status: TImportRowStatus;
  external_id?: string;
  amount_minor?: number;
  currency?: string;
  occurred_on?: string;
  description?: string;
  counterparty?: string;
  counterparty_account?: string;
  category?: string;
  /** The project a category rule gives the row (the import names none). */
  project_id?: string;
  reference?: string;
  matched_event_id?: string;
  /** Reconciled rows: the event matched (its id is matched_event_id). */
  matched_event?: TMatchedEntry;
  reject_reason?: string;
  account?: string;
  /** The cells of a rejected row, as read. */
  raw?: string[];
};

export function packRow(row: TRowData): TStoredRow {
  const packed: TStoredRow = { n: row.row, s: STATUS_CODES[row.status] };
  if (row.external_id !== undefined) packed.x = row.external_id;
  if (row.amount_minor !== undefined) packed.a = row.amount_minor;
  if (row.currency !== undefined) packed.c = row.currency;
  if (row.occurred_on !== undefined) packed.d = row.occurred_on;
  if (row.description !== undefined) packed.t = row.description;
  if (row.counterparty) packed.p = row.counterparty;
  if (row.counterparty_account) packed.q = row.counterparty_account;
  if (row.category) packed.g = row.category;
  if (row.project_id) packed.j = row.project_id;
  if (row.reference) packed.f = row.reference;
  if (row.matched_event_id) packed.m = row.matched_event_id;
  if (row.matched_event) packed.k = row.matched_event;
  if (row.reject_reason !== undefined) packed.e = row.reject_reason;
  if (row.raw) packed.r = row.raw;
  if (row.account) packed.o = row.account;
  return packed;
}

export function unpackRow(packed: TStoredRow): TRowData {
  const row: TRowData = { row: packed.n, status: STATUS_OF[packed.s] ?? "rejected" };
  if (packed.x !== undefined) row.external_id = packed.x;
  if (packed.a !== undefined) row.amount_minor = packed.a;
  if (packed.c !== undefined) row.currency = packed.c;
  if (packed.d !== undefined) row.occurred_on = packed.d;
  if (packed.t !== undefined) row.description = packed.t;
  if (packed.p !== undefined) row.counterparty = packed.p;
  if (packed.q !== undefined) row.counterparty_account = packed.q;
  if (packed.g !== undefined) row.category = packed.g;
  if (packed.j !== undefined) row.project_id = packed.j;
  if (packed.f !== undefined) row.reference = packed.f;
  if (packed.m !== undefined) row.matched_event_id = packed.m;
  if (packed.k !== undefined) row.matched_event = packed.k;
  if (packed.e !== undefined) row.reject_reason = packed.e;
  if (packed.r !== undefined) row.raw = packed.r;
  if (packed.o !== undefined) row.account = packed.o;
  return row;
}

/** The API form of a row (contract: Import preview row). */
export function toPreviewRow(row: TRowData): TImportPreviewRow {
  const out: TImportPreviewRow = {
    row: row.row,
    status: row.status,
    external_id: row.external_id ?? null,
    amount_minor: row.amount_minor ?? 0,
    currency: row.currency ?? "",
    occurred_on: row.occurred_on ?? "",
    description: row.description ?? "",
  };
  if (row.matched_event_id) out.matched_event_id = row.matched_event_id;
  if (row.matched_event) out.matched_event = row.matched_event;
  if (row.counterparty) out.counterparty = row.counterparty;
  if (row.category) out.category = row.category;
  if (row.project_id) out.project_id = row.project_id;
  if (row.reference) out.reference = row.reference;
  if (row.reject_reason !== undefined) out.reject_reason = row.reject_reason;
  if (row.raw) out.raw = row.raw;
  if (row.account) out.account = row.account;
  return out;
}
