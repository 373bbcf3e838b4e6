// The MCP resources: the contract as this repository keeps it (the operation tables of
// docs/contract/ and the live OpenAPI document, GET /v1/openapi.json) and the caller's
// passport (GET /v1/agents/me). What comes from /v1 is read through the same REST layer as
// the tools, as the caller.
import fs from "node:fs/promises";
import path from "node:path";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { TOperationTarget } from "./operation-call";

export const RESOURCE_URIS = {
  openapi: "finance://contract/openapi.json",
  operations: "finance://contract/operations.tsv",
  additiveOperations: "finance://contract/additive-operations.tsv",
  passport: "finance://agents/me/passport",
  profile: "finance://agents/me/profile.md",
} as const;

/** docs/contract/ of the checkout the server runs from. */
export function defaultContractDir(): string {
  return path.join(process.cwd(), "docs", "contract");
}

/** GET a /v1 path as the caller: the parsed envelope, or an MCP error carrying the contract's error body. */
async function getV1(target: TOperationTarget, v1Path: string): Promise<Record<string, unknown>> {
  const headers = new Headers(target.headers);
  const response = await target.dispatch(new Request(new URL(v1Path, target.origin), { method: "GET", headers }));
  const text = await response.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  if (!response.ok || !body) {
    const error = (body?.error ?? { message: text.slice(0, 500) }) as { code?: string; message?: string };
    throw new McpError(ErrorCode.InvalidRequest, `GET ${v1Path} answered ${response.status}: ${error.message ?? ""}`, body);
  }
  return body;
}

const json = (uri: string, value: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
});

export function registerResources(server: McpServer, target: TOperationTarget, contractDir: string): void {
  server.registerResource(
    "openapi",
    RESOURCE_URIS.openapi,
    {
      title: "The REST contract (OpenAPI 3.1)",
      description: "GET /v1/openapi.json: every /v1 operation, its access, scopes, experimental flag and schemas.",
      mimeType: "application/json",
    },
    async (uri) => json(uri.href, await getV1(target, "/v1/openapi.json")),
  );
  const table = (name: "operations" | "additiveOperations", file: string, title: string, description: string) =>
    server.registerResource(
      name,
      RESOURCE_URIS[name],
      { title, description, mimeType: "text/tab-separated-values" },
      async (uri) => ({
        contents: [
          { uri: uri.href, mimeType: "text/tab-separated-values", text: await fs.readFile(path.join(contractDir, file), "utf8") },
        ],
      }),
    );
  table(
    "operations",
    "operations.tsv",
    "The contract's operation table",
    "Method, path, access (O owner, A agent, P public), experimental flag, query or body and notes of every contract operation.",
  );
  table(
    "additiveOperations",
    "additive-operations.tsv",
    "Operations beyond the contract",
    "Additive operations (Versioning 1) this service serves beyond the contract's table, with the issue that asked for each.",
  );
  server.registerResource(
    "passport",
    RESOURCE_URIS.passport,
    {
      title: "Your passport",
      description:
        "The calling agent's passport from GET /v1/agents/me (purpose, responsibilities, allowed actions, constraints, " +
        "escalation; version 0 when never set), with its agent id and grants. The owner has none (null).",
      mimeType: "application/json",
    },
    async (uri) => {
      const { data } = (await getV1(target, "/v1/agents/me")) as { data: Record<string, unknown> };
      return json(uri.href, { actor: data.actor, passport: data.passport, grants: data.grants });
    },
  );
  server.registerResource(
    "profile",
    RESOURCE_URIS.profile,
    {
      title: "Your profile, prompt-ready",
      description: "GET /v1/agents/me?format=markdown: who you are here, your passport and grants with their limits, as text.",
      mimeType: "text/markdown",
    },
    async (uri) => {
      const { data } = (await getV1(target, "/v1/agents/me?format=markdown")) as { data: { markdown: string } };
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: data.markdown }] };
    },
  );
}
