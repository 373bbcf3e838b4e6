// The MCP server (the SDK's McpServer): the tools of tools.ts, the resources of resources.ts,
// versioned as the contract (versioning.ts). One is built per caller: per /mcp request in the
// app (stateless), once per process in the stdio companion.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { callOperation, type TOperationTarget } from "./operation-call";
import { registerResources } from "./resources";
import { mcpTools, type TMcpTool } from "./tools";
import { mcpServerVersion } from "./versioning";

export const MCP_SERVER_NAME = "finance-back-office";

const INSTRUCTIONS = [
  "The finance back office of one owner, as its REST API (/v1) lets you act: each tool is one /v1 operation, called with your token.",
  "Start with get_agent_me (who you are, your passport, your grants and the limits left today and this month).",
  "A result is the operation's envelope: data, with fx and coverage on aggregates. Amounts are integers in minor units with their currency.",
  "A write you may not execute at once (grant level recommend, or over a limit) answers data.approval { id, status: pending }: the owner decides it; get_my_economics counts it under writes.pending, then approved or rejected.",
  "A refusal is a tool error whose structured content is the contract's error body { error: { code, message, details } }, e.g. scope_denied, limit_exceeded, validation_error.",
  "Tools and result fields marked [EXPERIMENTAL] may change without a deprecation period; a [DEPRECATED] tool names its sunset date and replacement.",
].join("\n");

export type TMcpServerOptions = {
  /** Where tool calls and /v1 resources go, as whom. */
  target: TOperationTarget;
  /** docs/contract/ (the operation tables). */
  contractDir: string;
  /** Tools to serve (tests pass fixtures); default the declared ones. */
  tools?: TMcpTool[];
};

export function createMcpServer(options: TMcpServerOptions): McpServer {
  const tools = options.tools ?? mcpTools();
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: "Finance back office", version: mcpServerVersion() },
    { instructions: INSTRUCTIONS },
  );
  const byName = new Map<string, TMcpTool>();
  for (const tool of tools) {
    byName.set(tool.name, tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.listedInput,
        annotations: tool.annotations,
        _meta: tool._meta,
      },
      (args: Record<string, unknown>) => callOperation(tool, args, options.target),
    );
  }
  // McpServer validates arguments with the input schema before a tool runs and answers a
  // failure as plain text. A tool call is a /v1 call, so the REST layer validates instead, in
  // its order (access before validation: an agent without the scope gets scope_denied,
  // audited, whatever it sent) and in the contract's error body. tools/list stays McpServer's;
  // tools/call hands the arguments, as sent, to the same callOperation.
  server.server.removeRequestHandler("tools/call");
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return callOperation(tool, request.params.arguments, options.target);
  });
  registerResources(server, options.target, options.contractDir);
  // McpServer promises list-change notifications for what it registers; a stateless server has
  // no stream to send them on, so it promises none (the lists change only with a new version).
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}
