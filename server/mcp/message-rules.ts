// What /mcp refuses before the MCP SDK reads a message, so that its refusals follow /v1's rules
// (pinned-wave3 §1.5) and never surface as JSON-RPC internal errors:
//   - not JSON → HTTP 400, JSON-RPC -32700; nested past 64 levels, or a batch (an array: gone
//     from the transport since 2025-06-18) → HTTP 400, -32600; all
//     carrying /v1's validation_error (code and issues) in `error.data`;
//   - a request whose params do not fit its method (an `initialize` whose protocolVersion is an
//     array) → JSON-RPC -32602 Invalid params, with the issues, on HTTP 200 as the SDK answers
//     its own JSON-RPC errors (the SDK would answer -32603 with its validator's raw dump).
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CONTRACT_VERSION } from "../rest/contract";
import { findJsonProblem } from "../shared/safe-text";

type TIssue = { path: string; code: string; message: string };

/** The client requests the SDK's server answers, by method. */
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "prompts/list": ListPromptsRequestSchema,
  "prompts/get": GetPromptRequestSchema,
  "completion/complete": CompleteRequestSchema,
  "logging/setLevel": SetLevelRequestSchema,
} as const;

function rpcError(status: number, id: unknown, code: number, message: string, issues: TIssue[], requestId: string): Response {
  const body = {
    jsonrpc: "2.0",
    id: id ?? null,
    error: { code, message, data: { code: "validation_error", issues, request_id: requestId } },
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      "x-request-id": requestId,
      "x-service-contract": CONTRACT_VERSION,
    },
  });
}

/** A JSON-RPC id as the answer may echo it (a string or a number), else null. */
function echoedId(id: unknown): string | number | null {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** The refusal of a message the SDK must not read, or null. */
export function jsonRpcBodyRefusal(raw: Buffer, requestId: string): Response | null {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch (error) {
    const issue = { path: "(body)", code: "invalid_json", message: (error as Error).message };
    return rpcError(400, null, -32700, `Parse error: ${issue.message}`, [issue], requestId);
  }
  const problem = findJsonProblem(value, { text: false });
  if (problem) return rpcError(400, null, -32600, `Invalid Request: ${problem.path}: ${problem.message}`, [problem], requestId);

  if (Array.isArray(value)) {
    // JSON-RPC batches left the MCP transport in protocol version 2025-06-18.
    const issue = {
      path: "(body)",
      code: "invalid_type",
      message: "one JSON-RPC message per request; batches are not supported",
    };
    return rpcError(400, null, -32600, `Invalid Request: ${issue.message}`, [issue], requestId);
  }
  if (!value || typeof value !== "object") return null; // the SDK refuses these itself
  const message = value as { method?: unknown; id?: unknown };
  if (message.id === undefined || typeof message.method !== "string" || !Object.hasOwn(REQUEST_SCHEMAS, message.method))
    return null;
  const parsed = REQUEST_SCHEMAS[message.method as keyof typeof REQUEST_SCHEMAS].safeParse(value);
  let issues: TIssue[] = [];
  if (!parsed.success) {
    issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join(".") || "(message)",
      code: issue.code,
      message: issue.message,
    }));
  } else if (message.method === "resources/read" && !URL.canParse((parsed.data as { params: { uri: string } }).params.uri)) {
    // The SDK reads the URI with new URL() and answers a throw as an internal error.
    issues = [{ path: "params.uri", code: "invalid_format", message: "must be a URI (finance://…)" }];
  }
  if (issues.length === 0) return null;
  return rpcError(
    200,
    echoedId(message.id),
    -32602,
    `Invalid params: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`,
    issues,
    requestId,
  );
}
