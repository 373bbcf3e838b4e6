// The MCP companion over stdio, for agent hosts that start a local process:
//
//   npm run --silent mcp -- --token agt_… [--url http://localhost:3000]
//   finance-mcp --token agt_…                     (the package's bin, bin/finance-mcp.mjs)
//
// It serves the same tools and resources as POST /mcp (server/mcp/mcp-server.ts) and sends
// every tool call as a /v1 request to the running service at --url with the token as its
// bearer. It opens no database of its own on purpose: the service's REST layer is the one
// place that authenticates, rate-limits, checks grants and limits, holds approvals and
// audits, and the embedded database (PGlite) is one process's alone, so a second process
// opening it would corrupt it. Talking to the service keeps the agent's path exactly the
// REST API's, on either engine.
//
// The token may also come from MCP_TOKEN (a command line is visible to other local users).
// stdout carries the protocol only; messages go to stderr.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer } from "../server/mcp/mcp-server";
import { mcpServerVersion } from "../server/mcp/versioning";
import type { TMcpCaller } from "../server/mcp/tools";
import { appRouter } from "../server/router";
import { operationDefinitions } from "../server/rest/route-table";

const USAGE = "usage: finance-mcp --token <agt_… | ses_…> [--url http://localhost:3000]  (or MCP_TOKEN=…)";

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  if (index >= 0) return args[index + 1];
  const inline = args.find((arg) => arg.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
}

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) fail(USAGE, 0);
  const token = option(args, "token") ?? process.env.MCP_TOKEN;
  if (!token) fail(USAGE, 2);
  const base = option(args, "url") ?? process.env.MCP_SERVICE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  let origin: string;
  try {
    origin = new URL(base).origin;
  } catch {
    fail(`--url ${base} is not a URL.\n${USAGE}`, 2);
  }
  const headers = new Headers({ authorization: `Bearer ${token}`, "user-agent": `finance-mcp/${mcpServerVersion()} (stdio)` });

  // Fail at start, not on the first tool call: the token must authenticate, and the service must
  // speak the contract these tools describe (the same major.minor).
  let check: Response;
  try {
    check = await fetch(new URL("/v1/agents/me", origin), { headers });
  } catch (error) {
    fail(`The service at ${origin} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!check.ok) fail(`GET ${origin}/v1/agents/me answered ${check.status}: ${await check.text()}`);
  const served = check.headers.get("x-service-contract") ?? "";
  const servedMinor = /^\d+\.\d+\./.test(served) ? mcpServerVersion(served) : "unknown";
  if (servedMinor !== mcpServerVersion()) {
    fail(
      `The service speaks contract ${served || "(none)"}; these tools describe ${mcpServerVersion()}. Run the companion of the service's version.`,
    );
  }

  // Who calls, for tools/list: the owner, or an agent with its grants (GET /v1/agents/me).
  const me = ((await check.json()) as { data: { access: string; grants: Array<{ scope: string; resource: string }> | null } })
    .data;
  const caller: TMcpCaller = me.access === "all" ? { type: "owner" } : { type: "agent", grants: me.grants ?? [] };

  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const server = createMcpServer({
    target: { dispatch: (request) => fetch(request), origin, headers },
    caller,
    procedures: operationDefinitions(appRouter),
    contractDir: path.join(root, "docs", "contract"),
  });
  await server.connect(new StdioServerTransport());
  console.error(`finance-mcp ${mcpServerVersion()}: serving ${origin} over stdio`);
}

main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
