// Reading the contract's error out of a tRPC client error: the server's errorFormatter puts
// the contract code in `data.appCode` and zod-style issues in `data.details.issues`.
import { TRPCClientError } from "@trpc/client";

export type TFieldIssue = { path: string; message: string };

export type TFormError = {
  /** Messages by field name (the issue path's first segment). */
  fields: Record<string, string>;
  /** What to show above the form: the message of any issue not tied to a shown field. */
  summary: string | null;
};

type TErrorData = { appCode?: unknown; details?: unknown };

function dataOf(error: unknown): TErrorData | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data: unknown = error.data;
  return data && typeof data === "object" ? (data as TErrorData) : undefined;
}

/**
 * An HTTP answer that is not the tRPC endpoint's JSON (a crashed route's or a proxy's error
 * page): thrown by the panel's fetch (lib/trpc/client.tsx), so the panel can tell "the server
 * answered with an error" from "the server could not be reached" (no answer at all).
 */
export class ServerAnswerError extends Error {
  readonly status: number;
  readonly requestId: string | null;
  constructor(status: number, requestId: string | null) {
    super(`The server answered HTTP ${status}.`);
    this.name = "ServerAnswerError";
    this.status = status;
    this.requestId = requestId;
  }
}

export const UNREACHABLE_MESSAGE = "The server could not be reached. Check your connection and try again.";

/** What the panel says when the server failed (a 5xx): our fault, with the id to quote. */
export function serverFaultMessage(requestId: string | null | undefined): string {
  const quote = requestId ? ` If it keeps happening, contact support and quote request id ${requestId}.` : "";
  return `Something went wrong on our side. Try again in a moment.${quote}`;
}

function responseOf(error: TRPCClientError<never>): Response | undefined {
  const response: unknown = (error.meta as { response?: unknown } | undefined)?.response;
  return response instanceof Response ? response : undefined;
}

/**
 * The message for a server fault (internal_error, or a 5xx that is not the endpoint's JSON),
 * with the request id of the answer; null for any other error.
 */
export function serverFaultOf(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const typed = error as TRPCClientError<never>;
  if (typed.cause instanceof ServerAnswerError)
    return typed.cause.status >= 500 ? serverFaultMessage(typed.cause.requestId) : null;
  const response = responseOf(typed);
  const status = response?.status ?? 0;
  if (appCodeOf(error) === "internal_error" || (!dataOf(error) && status >= 500))
    return serverFaultMessage(response?.headers.get("x-request-id"));
  return null;
}

export function appCodeOf(error: unknown): string | undefined {
  const code = dataOf(error)?.appCode;
  return typeof code === "string" ? code : undefined;
}

const SIGNED_OUT = new Set(["unauthenticated", "session_expired", "session_revoked"]);

export function isSignedOutError(error: unknown): boolean {
  const code = appCodeOf(error);
  return code !== undefined && SIGNED_OUT.has(code);
}

export function issuesOf(error: unknown): TFieldIssue[] {
  const details = dataOf(error)?.details;
  if (!details || typeof details !== "object" || !("issues" in details) || !Array.isArray(details.issues)) return [];
  return details.issues.flatMap((issue: unknown) => {
    if (!issue || typeof issue !== "object") return [];
    const { path, message } = issue as { path?: unknown; message?: unknown };
    if (typeof message !== "string") return [];
    return [{ path: typeof path === "string" ? path : "", message }];
  });
}

/** "must not be empty" → "Must not be empty." */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Splits an error into per-field messages (for the fields a form shows) and a summary. */
export function formErrorOf(error: unknown, shownFields: readonly string[]): TFormError {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of issuesOf(error)) {
    const field = issue.path.split(".")[0] ?? "";
    if (shownFields.includes(field) && !fields[field]) fields[field] = sentence(issue.message);
    else rest.push(sentence(issue.path && issue.path !== "(body)" ? `${issue.path}: ${issue.message}` : issue.message));
  }
  let summary: string | null = rest.length > 0 ? rest.join(" ") : null;
  if (Object.keys(fields).length === 0 && !summary) summary = messageOf(error);
  return { fields, summary };
}

/**
 * Like formErrorOf, for forms whose fields are nested (`grants.0.currency`): `fieldOf` names the
 * field an issue belongs to, and may reword its message (or answers null: the issue goes to the
 * summary). The first message per field wins.
 */
export function formErrorByPath(
  error: unknown,
  fieldOf: (issue: TFieldIssue) => { field: string; message?: string } | null,
): TFormError {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of issuesOf(error)) {
    const target = fieldOf(issue);
    if (!target) rest.push(sentence(issue.path && issue.path !== "(body)" ? `${issue.path}: ${issue.message}` : issue.message));
    else if (!fields[target.field]) fields[target.field] = sentence(target.message ?? issue.message);
  }
  if (Object.keys(fields).length > 0 || rest.length > 0) return { fields, summary: rest.length > 0 ? rest.join(" ") : null };
  return formErrorOf(error, []);
}

/**
 * One sentence for an error with nothing to put beside a field: a server fault says so (with
 * the request id), a call that got no answer says the server could not be reached, anything
 * else is the server's own message.
 */
export function messageOf(error: unknown): string {
  const fault = serverFaultOf(error);
  if (fault) return fault;
  if (error instanceof TRPCClientError && !dataOf(error)) {
    // An answer that is not tRPC's JSON but not a 5xx either (e.g. a proxy's 413 page).
    if (error.cause instanceof ServerAnswerError) return sentence(error.cause.message);
    return UNREACHABLE_MESSAGE;
  }
  return error instanceof Error && error.message ? sentence(error.message) : "Something went wrong. Try again.";
}

/** A string field of the error's details (e.g. webhook_url_invalid's `rule`); undefined otherwise. */
export function detailStringOf(error: unknown, key: string): string | undefined {
  const details = dataOf(error)?.details;
  if (!details || typeof details !== "object") return undefined;
  const value = (details as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}
