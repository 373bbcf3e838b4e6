// The MCP server (the SDK's McpServer): the tools of tools.ts listed per caller with the schemas
// of tool-schemas.ts, the prompts of prompts.ts, the resources of resources.ts, versioned as the
// contract (versioning.ts). One is built per caller: per /mcp request in the app (stateless),
// once per process in the stdio companion.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { callOperation, type TDispatch, type TOperationTarget } from "./operation-call";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";
import { toolInputSchema, toolOutputSchema, type TOpenApiDocument } from "./tool-schemas";
import { mcpTools, toolsFor, type TMcpCaller, type TMcpTool, type TProcedures } from "./tools";
import { mcpServerVersion } from "./versioning";

export const MCP_SERVER_NAME = "finance-back-office";

const INSTRUCTIONS = [
  "The finance back office of one owner, as its REST API (/v1) lets you act: each tool is one /v1 operation, called with your token; you see the tools your grants let you call.",
  "Start with get_agent_me (who you are, your passport, your grants and the limits left today and this month).",
  "A result is the operation's envelope: data, with fx and coverage on aggregates. Amounts are integers in minor units with their currency (12345 EUR = 123.45 EUR); rates are 8-decimal strings.",
  "A write you may not execute at once (grant level recommend, or over a limit) answers data.approval { id, status: pending }: the owner decides it; get_my_economics counts it under writes.pending, then approved or rejected. Every write of an agent needs a reason.",
  "A refusal is a tool error whose structured content is the contract's error body { error: { code, message, details } }, e.g. scope_denied, limit_exceeded, validation_error.",
  "Tools and result fields marked [EXPERIMENTAL] may change without a deprecation period; a [DEPRECATED] tool names its sunset date and replacement.",
].join("\n");

export type TMcpServerOptions = {
  /** Where tool calls and /v1 resources go, as whom. */
  target: TOperationTarget;
  /** Who calls: tools/list shows the tools it may call. */
  caller: TMcpCaller;
  /** docs/contract/ (the operation tables). */
  contractDir: string;
  /** The app router's procedures (the operations the tools call), from the composition root. */
  procedures: TProcedures;
  /** Tools to serve (tests pass fixtures); default the caller's. */
  tools?: TMcpTool[];
};

// The OpenAPI document of the /v1 layer a server dispatches to, read once per layer (the app's
// handler is one function for the process; the stdio companion's fetch is one per process).
const documents = new WeakMap<TDispatch, Promise<TOpenApiDocument>>();

function openApiDocument(target: TOperationTarget): Promise<TOpenApiDocument> {
  let document = documents.get(target.dispatch);
  if (!document) {
    document = target
      .dispatch(new Request(new URL("/v1/openapi.json", target.origin), { method: "GET" }))
      .then(async (response) => {
        if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
        return (await response.json()) as TOpenApiDocument;
      });
    document.catch(() => documents.delete(target.dispatch));
    documents.set(target.dispatch, document);
  }
  return document;
}

// A tool as listed depends on the document and on whether the caller is an agent (its required
// reason), not on the caller's grants: built once per document, tool and kind of caller.
const listed = new WeakMap<TOpenApiDocument, Map<string, Tool>>();

/** A tool as tools/list shows it to this caller. */
export function listedTool(tool: TMcpTool, caller: TMcpCaller, document: TOpenApiDocument): Tool {
  let byKey = listed.get(document);
  if (!byKey) listed.set(document, (byKey = new Map()));
  const key = `${caller.type} ${tool.name}`;
  let entry = byKey.get(key);
  if (!entry) byKey.set(key, (entry = buildListedTool(tool, caller, document)));
  return entry;
}

function buildListedTool(tool: TMcpTool, caller: TMcpCaller, document: TOpenApiDocument): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolInputSchema(tool, caller) as Tool["inputSchema"],
    outputSchema: toolOutputSchema(tool, document) as Tool["outputSchema"],
    annotations: tool.annotations,
    _meta: tool._meta,
  };
}

export function createMcpServer(options: TMcpServerOptions): McpServer {
  const tools = options.tools ?? toolsFor(options.procedures, options.caller);
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: "Finance back office", version: mcpServerVersion() },
    { instructions: INSTRUCTIONS },
  );
  // A call may name any tool, listed or not: one the caller may not call goes to /v1 like any
  // other and is refused there (403 scope_denied, audited as every denial is), never a silent miss.
  const byName = new Map(mcpTools(options.procedures).map((tool) => [tool.name, tool]));
  for (const tool of tools) byName.set(tool.name, tool);
  // tools/list and tools/call are this server's own: the list is the caller's (its grants), its
  // schemas strict 2020-12 with an output schema each; a call hands the arguments, as sent, to
  // the /v1 REST layer, which validates them in its order (access before validation: an agent
  // without the scope gets scope_denied, audited, whatever it sent) and in the contract's body.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  server.server.setRequestHandler(ListToolsRequestSchema, async () => {
    const document = await openApiDocument(options.target);
    return { tools: tools.map((tool) => listedTool(tool, options.caller, document)) };
  });
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return callOperation(tool, request.params.arguments, options.target);
  });
  registerPrompts(server, options.caller);
  registerResources(server, options.target, options.contractDir);
  // McpServer promises list-change notifications for what it registers; a stateless server has
  // no stream to send them on, so it promises none (the lists change only with a new version).
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  return server;
}
