// A tool call is a /v1 call: the arguments become the operation's request (path parameters
// into the path, the rest into the query of a GET or the JSON body of a write), sent with the
// caller's own Authorization header through the REST layer, and its answer becomes the tool's
// result. So authentication, the per-token rate, idempotency, the access check, validation,
// grant coverage, limits, approvals, audit and the envelope are the REST layer's, in its order
// (pinned-wave2 §1.3): nothing about an operation is decided twice.
//
// The REST layer is reached through `dispatch`: in the app, the process's own /v1 handler
// (a Request in, a Response out, no network); in the stdio companion, fetch to the service.
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SOCKET_ADDRESS_HEADER } from "../auth/client-ip";
import { unsafeTextReason } from "../shared/safe-text";
import { AppError } from "../errors/app-error";
import { IDEMPOTENCY_ARGUMENT, type TMcpTool } from "./tools";

/** Sends a /v1 request to the REST layer and answers its response. */
export type TDispatch = (request: Request) => Promise<Response>;

/** Where tool calls go and as whom. */
export type TOperationTarget = {
  dispatch: TDispatch;
  /** The service's origin (`http://localhost:3000`); in process, the /mcp request's own. */
  origin: string;
  /** The caller's headers every /v1 call carries (forwardedHeaders). */
  headers: Headers;
};

/**
 * The headers of an incoming /mcp request that a /v1 call must carry to be the same caller:
 * the bearer, the client's address as the server entry stamped it (IP allow-lists, per-IP
 * limits), its proxies, its user agent and its minimum contract version.
 */
const FORWARDED = ["authorization", SOCKET_ADDRESS_HEADER, "x-forwarded-for", "user-agent", "x-service-contract-min"];

export function forwardedHeaders(incoming: Headers): Headers {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

/** A tool's answer: the /v1 envelope (or error body) as structured content and as JSON text. */
export function toolResult(body: Record<string, unknown>, isError: boolean): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body,
    ...(isError ? { isError: true } : {}),
  };
}

/** A contract error raised before the call leaves (a path parameter the path cannot carry). */
function errorResult(error: AppError): CallToolResult {
  const body = { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) };
  return toolResult({ error: body }, true);
}

/** A query parameter's text (a GET's arguments are sent as the query string, as REST clients send them). */
function queryText(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The /v1 request a tool call makes. */
export function operationRequest(
  tool: TMcpTool,
  args: Record<string, unknown>,
  target: Pick<TOperationTarget, "origin" | "headers">,
): Request {
  const rest: Record<string, unknown> = { ...args };
  let path = tool.path;
  const missing: string[] = [];
  for (const name of tool.pathParams) {
    const value = rest[name];
    delete rest[name];
    if (typeof value !== "string" && typeof value !== "number") {
      missing.push(name);
      continue;
    }
    // A lone surrogate cannot be percent-encoded (encodeURIComponent throws): refused as /v1 refuses such text.
    const unsafe = unsafeTextReason(String(value));
    if (unsafe) throw AppError.invalidField(name, unsafe);
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  if (missing.length > 0) {
    throw new AppError("validation_error", `${missing.join(", ")}: required.`, {
      details: { issues: missing.map((name) => ({ path: name, message: "required: it is part of the operation's path" })) },
    });
  }
  const headers = new Headers(target.headers);
  let key: unknown = undefined;
  if (tool.keyed) {
    key = rest[IDEMPOTENCY_ARGUMENT];
    delete rest[IDEMPOTENCY_ARGUMENT];
    if (key !== undefined && (typeof key !== "string" || !/^[\x21-\x7e]+$/.test(key))) {
      throw AppError.invalidField(IDEMPOTENCY_ARGUMENT, "must be printable ASCII text without spaces");
    }
    headers.set("idempotency-key", (key as string | undefined) ?? randomUUID());
  }
  const url = new URL(path, target.origin);
  if (tool.method === "GET" || tool.method === "DELETE") {
    for (const [name, value] of Object.entries(rest)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, queryText(item));
    }
    return new Request(url, { method: tool.method, headers });
  }
  headers.set("content-type", "application/json");
  return new Request(url, { method: tool.method, headers, body: JSON.stringify(rest) });
}

/** Runs one tool call through the REST layer and answers the tool's result. */
export async function callOperation(
  tool: TMcpTool,
  args: Record<string, unknown> | undefined,
  target: TOperationTarget,
): Promise<CallToolResult> {
  let request: Request;
  try {
    request = operationRequest(tool, args ?? {}, target);
  } catch (error) {
    if (error instanceof AppError) return errorResult(error);
    throw error;
  }
  let response: Response;
  try {
    response = await target.dispatch(request);
  } catch (error) {
    // The stdio companion's service is down or unreachable: no answer, so no contract body.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      content: [{ type: "text", text: `${tool.method} ${tool.path}: the service did not answer (${reason}).` }],
      isError: true,
    };
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    // Every agent operation answers JSON; anything else (a proxy's page) is passed on as text.
    return {
      content: [{ type: "text", text: `${tool.method} ${tool.path} answered ${response.status}: ${text.slice(0, 2000)}` }],
      isError: true,
    };
  }
  return toolResult(body as Record<string, unknown>, !response.ok);
}
