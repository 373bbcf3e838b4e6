// What every procedure declares about itself in its meta. The REST layer, the access
// middleware and the OpenAPI document all read these fields; nothing is configured twice.
import type { OpenApiMeta } from "trpc-to-openapi";
import type { TScope } from "../auth/scopes";
import type { TTransactionLimits } from "../db/transaction";
import type { TPlanLimitKey } from "../plans/plan-limits";

/** A file an operation answers (?format=): its media type in FILE_MEDIA_TYPES. */
export type TFileFormat = "csv" | "xlsx";

export const FILE_MEDIA_TYPES: Record<TFileFormat, string> = {
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The Access column of spec/operations.tsv. */
export type TAccessRule =
  // P: no bearer. Calls without one count per client IP (server/rest/ip-limit.ts): `login`
  // 10 a minute, `waitlist` 5 a minute and 20 a day, else the public 60 a minute; `none` only
  // for what opens no database.
  | { kind: "public"; ipLimit?: "login" | "waitlist" | "none" }
  | { kind: "signature" } // P (signature): authenticated by a webhook signature
  | { kind: "owner" } // O
  // OA: the owner, or an agent holding the scope, or every one of the scopes when several are named
  // (any agent without one); with `anyScope`, an agent holding at least one of those scopes
  // (pinned-wave3 §2.1: a business's ads read with `ads` or `finances:observe`)
  | { kind: "owner_or_agent"; scope?: TScope | readonly TScope[]; anyScope?: readonly TScope[] };

export type TDeprecation = {
  /** The day the deprecation was declared, YYYY-MM-DD (its CHANGELOG.md entry's release). */
  since: string;
  /** The sunset day, YYYY-MM-DD, at least 90 days after `since` (sent as an RFC 1123 date). */
  sunset: string;
  /** What to call instead (an operation, e.g. "GET /v1/…"). */
  replacement: string;
  /** The CHANGELOG.md entry that explains it (…/CHANGELOG.md#anchor), sent as Link rel="deprecation". */
  link: string;
};

/** A second success status an operation answers with (documented beside successStatus). */
export type TOtherSuccess = {
  status: 200 | 201 | 202;
  /** When it answers this status, in the OpenAPI document. */
  description: string;
  /** The body at this status: the operation's own (default), or `{ data: PendingApproval }` (a held write). */
  body?: "same" | "pending_approval";
  /**
   * Whether an answer (the procedure's output) has this status. A `pending_approval` body is
   * recognised by its shape and needs none.
   */
  when?: (output: any) => boolean; // eslint-disable-line @typescript-eslint/no-explicit-any -- each meta reads its own output
};

/** An answer as a file (a report's ?format=csv|xlsx): sent as is, with an attachment Content-Disposition. */
export type TResponseFile = { contentType: string; filename: string; body: string | Uint8Array };

export type TProcedureMeta = OpenApiMeta<{
  access?: TAccessRule;
  /** Status of a successful answer (contract Conventions 6); a procedure may override per call. */
  successStatus?: 200 | 201 | 202;
  /** Other statuses a success may have (a repeat that creates nothing, a write held for approval). */
  otherSuccess?: readonly TOtherSuccess[];
  /** (X) in the contract's table: may change without deprecation. */
  experimental?: boolean;
  /** Writes need Idempotency-Key unless the contract exempts them. */
  idempotency?: "required" | "exempt";
  deprecation?: TDeprecation;
  /** The answer carries a secret shown once (a token, a signing secret): its replay copy is stored encrypted. */
  secretInResponse?: boolean;
  /** Limits of the write's one transaction (idempotent writes), when the REST layer's default is too short. */
  transaction?: TTransactionLimits;
  /** Cross-origin calls allowed from LANDING_ORIGIN (server/rest/cors.ts), preflight included. */
  cors?: "landing";
  /**
   * A create counted against this plan limit (pinned-wave2 §5.2): the procedure runs in one
   * transaction under the owner-row lock and is refused (403 plan_limit_exceeded) past the limit.
   */
  planLimit?: TPlanLimitKey;
  /** A write an expired plan still allows (§5.2's exceptions); other writes answer 403 plan_expired. */
  planExpiry?: "exempt";
  /**
   * The files a GET answers besides JSON (its `format` query parameter): the OpenAPI document
   * lists their media types beside application/json, and the REST layer sends `renderFile` of the
   * output instead of the envelope. Other doors (the panel's endpoint, server components) keep the JSON.
   */
  files?: readonly TFileFormat[];
  renderFile?: (output: any, format: TFileFormat) => TResponseFile; // eslint-disable-line @typescript-eslint/no-explicit-any -- each meta reads its own output
}>;
