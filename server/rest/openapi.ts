// GET /v1/openapi.json: OpenAPI 3.1 generated from the routers and the plain routes, then
// adjusted to what the REST layer really does (trpc-to-openapi says 200 for every success
// and documents its own error body). trpc-to-openapi is only this generator: the REST layer
// routes and calls procedures itself, and assertOpenApiAgrees proves at start-up that both
// put the same operation at every method and path.
import type { AnyRouter } from "@trpc/server";
import type { ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ERROR_CODES, ERROR_CODE_LIST } from "../errors/app-error";
import { NOTIFICATION_WEBHOOK_OPENAPI } from "../notifications/webhook-openapi";
import { CONTRACT_VERSION } from "./contract";
import { IDEMPOTENCY_KEY_MAX } from "./idempotency";
import type { TPlainRoute } from "./plain-route";
import { isWriteMethod, type TRoute } from "./route-table";

const DESCRIPTION = `The finance back office's REST contract v1 (${CONTRACT_VERSION}).

Conventions every operation follows:
- Bodies are JSON objects (UTF-8, at most 1 MB: larger answers 413 payload_too_large). Every
  success is the envelope \`{ data, page?, request_id }\`; every error is
  \`{ error: { code, message, details?, request_id } }\`. \`details.issues[]\` names each failing
  field (\`path\`, \`code\`, \`message\`).
- Text is Unicode without NUL: a NUL (\\u0000) or a lone surrogate in a body string or key or
  a query parameter, JSON nested deeper than 64 levels, and a day before 1900-01-01 or after
  2999-12-31 answer 400 validation_error naming the field (refused, never stripped). A webhook
  event or a statement row with one is rejected alone and the rest goes in (a NUL byte makes a
  statement file binary: 415).
- Every response carries X-Request-Id (equal to the body's request_id) and X-Service-Contract.
  A client may send X-Service-Contract-Min; a higher version than the server's answers 426.
- Authenticated responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset
  (Unix seconds when the one-minute window ends). Over the limit: 429 rate_limited with
  Retry-After (seconds). The limit is per token.
- Calls without a bearer are limited per client IP, with the same headers and 429: POST
  /v1/auth/magic-link 10 a minute (on top of its per-address throttle), every other one 60 a
  minute; a bearer refused with 401 spends the same 60, and past them no bearer from that
  address is checked until the minute ends. Not counted: signed webhooks (the signature is the
  credential, and providers deliver in bursts) and this document. The client IP is the
  connection's address, or with TRUST_PROXY=N the N-th X-Forwarded-For entry from the right.
- Writes (POST, PUT, PATCH, DELETE) need Idempotency-Key (at most ${IDEMPOTENCY_KEY_MAX} characters) except
  where an operation says otherwise. Keys are scoped to the caller (the owner, or one agent) and
  kept 24 hours. The same key with the same method, path and body replays the stored answer with
  Idempotent-Replayed: true; another body answers 409 idempotency_conflict; a duplicate sent while
  the first is running waits for it and replays its answer. Answers that are not stored, so a retry
  with the same key runs again: 5xx, 429, 400, 401, 403 and 422 fx_unavailable.
- Lists: \`limit\` 1–200 (default 50) and an opaque \`cursor\` (page.next_cursor); order created_at
  descending, then id descending.
- A path that exists answers a method it lacks with 405 method_not_allowed and an Allow header.
- Deprecated operations answer with Deprecation: true, Sunset and Link rel="deprecation".

Credentials and their lifetimes:
- Owners sign in with a magic link (POST /v1/auth/magic-link, then /v1/auth/verify). A login
  token works once, for 15 minutes. A session token (ses_…) lasts 30 days from sign-in and ends
  earlier on logout or revocation (401 session_expired, session_revoked).
- Agents use tokens (agt_…) shown once, on create and on rotate; they last 90 days unless the
  owner sets token_expires_at (at most one year ahead; 401 token_expired), stop at once on rotate or revoke
  (401 token_revoked), and answer 403 agent_suspended while the agent is suspended.
- Tokens are stored only as SHA-256 hashes.
- An agent's write needs \`reason\` (3+ characters) and runs within its grant (scope, resource,
  level, daily and monthly limits); otherwise it answers 202 with a pending approval, or 403.
- An agent calling an owner-only operation, or one whose scope none of its grants has, gets 403
  scope_denied (details.required or details.required_scope), before the body is read. A business,
  project or other resource of its owner that no grant of the operation's scope covers answers 403
  scope_denied (details.required_scope and details.resource); one that does not exist or is another
  owner's answers 404 not_found. Every scope_denied is recorded in the audit log (access.denied).`;

const ERROR_SCHEMA: SchemaObject = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "request_id"],
      properties: {
        code: { type: "string", enum: ERROR_CODE_LIST },
        message: { type: "string" },
        details: {},
        request_id: { type: "string" },
      },
    },
  },
};

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: "Bad request",
  401: "Not authenticated",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable",
  426: "Contract too old",
  429: "Rate limited",
  500: "Internal error",
};

function errorResponses(): Record<string, ResponseObject> {
  const byStatus = new Map<number, string[]>();
  for (const code of ERROR_CODE_LIST) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, codes] of byStatus) {
    responses[`Error${status}`] = {
      description: `${STATUS_DESCRIPTIONS[status] ?? "Error"}: ${codes.join(", ")}.`,
      headers: { "X-Request-Id": { $ref: "#/components/headers/XRequestId" } },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return responses;
}

function plainPaths(plain: TPlainRoute[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of plain) {
    const item = (paths[route.path] ??= {}) as Record<string, unknown>;
    item[route.method.toLowerCase()] = route.openapi;
  }
  return paths;
}

type TOperation = {
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> } & Record<string, unknown>>;
  parameters?: unknown[];
  security?: unknown[];
  [key: string]: unknown;
};

export function buildOpenApiDocument(router: AnyRouter, routes: TRoute[], plain: TPlainRoute[]): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: "Finance back office API",
    description: DESCRIPTION,
    version: CONTRACT_VERSION,
    openApiVersion: "3.1.0",
    baseUrl: "/",
    securitySchemes: {
      ownerSession: {
        type: "http",
        scheme: "bearer",
        description: "The owner's session token (ses_…), or the static owner token in AUTH_MODE=static.",
      },
      agentToken: { type: "http", scheme: "bearer", description: "An agent's token (agt_…), created by the owner." },
    },
    paths: plainPaths(plain),
  });
  doc.info.license = { name: "Proprietary", identifier: "LicenseRef-Proprietary" };
  doc.servers = [{ url: "/", description: "This server" }];
  // What the service sends (OpenAPI 3.1 webhooks): the owner's notification webhook.
  doc.webhooks = structuredClone(NOTIFICATION_WEBHOOK_OPENAPI) as unknown as OpenAPIObject["webhooks"];
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas, Error: ERROR_SCHEMA };
  doc.components.responses = { ...doc.components.responses, ...errorResponses() };
  doc.components.headers = {
    ...doc.components.headers,
    XRequestId: { description: "The request id, also in the body.", schema: { type: "string" } },
    XServiceContract: { description: "The contract version of this server.", schema: { type: "string" } },
    XRateLimitLimit: { description: "Requests allowed per minute for this token.", schema: { type: "integer" } },
    XRateLimitRemaining: { description: "Requests left in the current window.", schema: { type: "integer" } },
    XRateLimitReset: { description: "Unix time (seconds) when the window ends.", schema: { type: "integer" } },
  };
  doc.components.parameters = {
    ...doc.components.parameters,
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: true,
      description: "Makes the write safe to retry; see the conventions.",
      schema: { type: "string", maxLength: IDEMPOTENCY_KEY_MAX },
    },
    ContractMin: {
      name: "X-Service-Contract-Min",
      in: "header",
      required: false,
      description: "The lowest contract version the client accepts.",
      schema: { type: "string" },
    },
  };

  const errorRefs = Object.fromEntries(
    [...new Set(ERROR_CODE_LIST.map((code) => ERROR_CODES[code].status))].map((status) => [
      String(status),
      { $ref: `#/components/responses/Error${status}` },
    ]),
  );

  for (const route of routes) {
    const operation = (doc.paths?.[route.path] as Record<string, TOperation> | undefined)?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI document lacks ${route.method} ${route.path}`);
    const responses = (operation.responses ??= {});
    if (route.target.kind === "procedure") {
      const success = responses["200"];
      delete responses["200"];
      if (success) {
        const schema = success.content?.["application/json"]?.schema;
        if (schema) addRequestId(schema);
        success.headers = {
          "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
          "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
          ...(route.access.kind === "public" || route.access.kind === "signature"
            ? {}
            : {
                "X-RateLimit-Limit": { $ref: "#/components/headers/XRateLimitLimit" },
                "X-RateLimit-Remaining": { $ref: "#/components/headers/XRateLimitRemaining" },
                "X-RateLimit-Reset": { $ref: "#/components/headers/XRateLimitReset" },
              }),
        };
        responses[String(route.successStatus)] = success;
      }
    }
    // The contract's error body replaces the adapter's; every operation lists every status.
    for (const status of Object.keys(responses)) if (Number(status) >= 400 || status === "default") delete responses[status];
    Object.assign(responses, errorRefs);

    operation.security =
      route.access.kind === "public" || route.access.kind === "signature"
        ? []
        : route.access.kind === "owner"
          ? [{ ownerSession: [] }]
          : [{ ownerSession: [] }, { agentToken: [] }];
    if (route.access.kind === "owner_or_agent" && route.access.scope) {
      // One scope as a string (as ever); an operation needing several lists them all.
      if (typeof route.access.scope === "string") operation["x-required-scope"] = route.access.scope;
      else operation["x-required-scopes"] = [...route.access.scope];
    }
    const parameters = (operation.parameters ??= []);
    parameters.push({ $ref: "#/components/parameters/ContractMin" });
    if (isWriteMethod(route.method) && route.idempotency === "required") {
      parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
    }
    if (route.experimental) operation["x-experimental"] = true;
    if (route.deprecation) {
      operation.deprecated = true;
      operation["x-sunset"] = route.deprecation.sunset;
    }
  }
  return doc;
}

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** What the generator documents for a router: "METHOD /path" → operationId (once per router). */
const documentedOperations = new WeakMap<AnyRouter, Map<string, string | undefined>>();

function operationsOf(router: AnyRouter): Map<string, string | undefined> {
  let operations = documentedOperations.get(router);
  if (operations) return operations;
  operations = new Map();
  const { paths } = generateOpenApiDocument(router, { title: "", version: "", baseUrl: "/" });
  for (const [path, item] of Object.entries(paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      if (operation) operations.set(`${method.toUpperCase()} ${path}`, operation.operationId);
    }
  }
  documentedOperations.set(router, operations);
  return operations;
}

/**
 * Start-up check: trpc-to-openapi's path table (what /v1/openapi.json documents) and the REST
 * layer's route table agree on every method and path → operation, both ways. A path the
 * generator normalises differently, an operation it leaves out or names otherwise, fails here
 * rather than in a client.
 */
export function assertOpenApiAgrees(router: AnyRouter, routes: TRoute[]): void {
  const documented = operationsOf(router);
  const served = new Map<string, string | undefined>();
  for (const route of routes)
    if (route.target.kind === "procedure") served.set(`${route.method} ${route.path}`, route.operationId);
  const problems: string[] = [];
  for (const [operation, id] of served) {
    if (!documented.has(operation)) problems.push(`${operation} (${id}) is served but not documented`);
    else if (documented.get(operation) !== id)
      problems.push(`${operation} is ${id} here but ${documented.get(operation)} in the document`);
  }
  for (const [operation, id] of documented) {
    if (!served.has(operation)) problems.push(`${operation} (${id}) is documented but not served`);
  }
  if (problems.length > 0) {
    throw new Error(`The OpenAPI document and the REST layer's routes disagree:\n  ${problems.join("\n  ")}`);
  }
}

/** The envelope's request_id, added by the REST layer to every body. */
function addRequestId(schema: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!properties) return;
  properties.request_id = { type: "string", description: "Also in the X-Request-Id header." };
  schema.required = [...((schema.required as string[] | undefined) ?? []), "request_id"];
}
