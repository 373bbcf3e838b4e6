// GET /v1/openapi.json: OpenAPI 3.1 generated from the routers and the plain routes, then
// adjusted to what the REST layer really does (trpc-to-openapi says 200 for every success
// and documents its own error body). trpc-to-openapi is only this generator: the REST layer
// routes and calls procedures itself, on routes read from the same meta (route-table.ts), and
// the document and the routes must name the same operations (checked below, both ways).
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
import { FILE_MEDIA_TYPES } from "../trpc/meta";

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
- Amounts are integer minor units, exact: one beyond ±(2^53 − 1) is refused on write (400 validation_error). A
  figure an aggregate or a simulation computes beyond that range (a sum of many amounts can be) answers 422
  amount_out_of_range, details.field naming it (its dot-separated path in data); never a rounded number.
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
- Deprecated operations (\`deprecated: true\`, \`x-sunset\`) answer with Deprecation: true, Sunset (an
  RFC 1123 date) and Link <…>; rel="deprecation" pointing at their CHANGELOG.md entry. A deprecation
  lasts at least 90 days; inside /v1 a deprecated operation keeps answering after its sunset, with
  the same headers (removal is a breaking change, allowed only in /v2).

How to read this document (contract Versioning 1: inside /v1 only additive changes):
- Response records are open: new fields may appear in any response object, so no response schema
  says \`additionalProperties: false\`; ignore fields you do not know.
- Enumerations in responses are open too: a response field's known values are listed in
  \`x-extensible-enum\` (not \`enum\`), and a client must accept a value it does not know. The
  error \`code\` is one of them. Enumerations in requests (\`enum\`) are closed: another value
  answers 400 validation_error.
- Request bodies: unknown fields are ignored, except in a schema that says
  \`additionalProperties: false\`, where they answer 400 validation_error.
- \`x-access\` names who may call an operation: owner (ownerSession), owner_or_agent (also an
  agent's token, holding \`x-required-scope\` / \`x-required-scopes\` when named), public (no
  bearer) or signature (a webhook signature instead of a bearer). \`x-experimental: true\` marks the
  operations that may change without a deprecation period (Versioning 5). \`x-idempotency\` is
  required (the Idempotency-Key parameter) or exempt.
- Operations with two success statuses document both (e.g. 201 and 200 for a repeated cash
  snapshot, 201 and 202 for a write held for approval).

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
        // Versioning 1 allows new codes: the known ones, open.
        code: { type: "string", "x-extensible-enum": ERROR_CODE_LIST } as SchemaObject,
        message: { type: "string" },
        details: { $ref: "#/components/schemas/ErrorDetails" },
        request_id: { type: "string" },
      },
      allOf: [
        // A validation_error always names what failed.
        {
          if: { required: ["code"], properties: { code: { const: "validation_error" } } },
          then: {
            required: ["details"],
            properties: { details: { type: "object", required: ["issues"], properties: { issues: { type: "array" } } } },
          },
        } as SchemaObject,
        // So does amount_out_of_range: the figure of the answer beyond the exact range.
        {
          if: { required: ["code"], properties: { code: { const: "amount_out_of_range" } } },
          then: {
            required: ["details"],
            properties: { details: { type: "object", required: ["field"], properties: { field: { type: "string" } } } },
          },
        } as SchemaObject,
      ],
    } as SchemaObject,
  },
};

const ERROR_DETAILS_SCHEMA: SchemaObject = {
  type: "object",
  description:
    "Facts about the error, by code (e.g. scope_denied: required_scope and resource; limit_exceeded: period, " +
    "limit_minor, currency; contract_too_old: server_version, required; amount_out_of_range: field). A validation_error " +
    "always names each failing field in issues.",
  properties: {
    issues: { type: "array", items: { $ref: "#/components/schemas/ValidationIssue" } },
    field: {
      type: "string",
      description:
        "amount_out_of_range: the figure of the answer whose exact value is beyond ±(2^53 − 1) minor units, as its " +
        "dot-separated path in data (e.g. totals.run_rate_in_minor, days.3.balance_committed_minor). Other codes may name a field too.",
    },
  },
};

const VALIDATION_ISSUE_SCHEMA: SchemaObject = {
  type: "object",
  required: ["path", "message"],
  properties: {
    path: {
      type: "string",
      description: 'The failing field, dot-separated (items.0.amount_minor), a header name, or "(body)" for the whole body.',
    },
    code: { type: "string", description: "What failed (zod's issue code, e.g. invalid_type, too_small, custom), when known." },
    message: { type: "string" },
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

type THeader = { description: string; required?: boolean; schema: SchemaObject };

/** The response headers of the REST layer; `required` where the response always carries it. */
const HEADERS = {
  XRequestId: { description: "The request id, also in the body.", required: true, schema: { type: "string" } },
  XServiceContract: { description: "The contract version of this server.", required: true, schema: { type: "string" } },
  XRateLimitLimit: {
    description: "Requests allowed per minute (per token, or per client IP without one).",
    required: true,
    schema: { type: "integer" },
  },
  XRateLimitRemaining: { description: "Requests left in the current window.", required: true, schema: { type: "integer" } },
  XRateLimitReset: { description: "Unix time (seconds) when the window ends.", required: true, schema: { type: "integer" } },
  RetryAfter: {
    description: "Seconds to wait before retrying (with the same Idempotency-Key).",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  Allow: { description: "The methods this path has, comma-separated.", required: true, schema: { type: "string" } },
  IdempotentReplayed: {
    description: "true: the stored answer of an earlier request with this Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
  Deprecation: {
    description: "true: this operation is deprecated (see Sunset and Link).",
    required: true,
    schema: { type: "string", enum: ["true"] },
  },
  Sunset: {
    description: "The sunset day, as an RFC 1123 date (e.g. Wed, 01 Sep 2027 00:00:00 GMT).",
    required: true,
    schema: { type: "string" },
  },
  Link: {
    description: 'The changelog entry: <https://…/CHANGELOG.md#…>; rel="deprecation".',
    required: true,
    schema: { type: "string" },
  },
} satisfies Record<string, THeader>;

/** The same header where the response carries it only sometimes. */
function optional(header: THeader): THeader {
  const { required: _required, ...rest } = header;
  return rest;
}

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
      headers: {
        "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
        "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
        ...(status === 429 ? { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } : {}),
        ...(status === 405 ? { Allow: { $ref: "#/components/headers/Allow" } } : {}),
        // Sent when the call got that far: counted (a bearer, or a public call per IP), replayed, deprecated.
        "X-RateLimit-Limit": optional(HEADERS.XRateLimitLimit),
        "X-RateLimit-Remaining": optional(HEADERS.XRateLimitRemaining),
        "X-RateLimit-Reset": optional(HEADERS.XRateLimitReset),
        "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" },
        Deprecation: optional(HEADERS.Deprecation),
        Sunset: optional(HEADERS.Sunset),
        Link: optional(HEADERS.Link),
      },
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
  // trpc-to-openapi's own error schemas: replaced by the contract's error body below.
  for (const name of Object.keys(doc.components.schemas ?? {}))
    if (name.startsWith("error.")) delete doc.components.schemas![name];
  doc.components.schemas = {
    ...doc.components.schemas,
    Error: ERROR_SCHEMA,
    ErrorDetails: ERROR_DETAILS_SCHEMA,
    ValidationIssue: VALIDATION_ISSUE_SCHEMA,
  };
  doc.components.responses = { ...doc.components.responses, ...errorResponses() };
  doc.components.headers = { ...doc.components.headers, ...HEADERS };
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

  // The document and the routes come from the same meta; they still must name the same operations.
  const served = new Set(routes.map((route) => `${route.method.toLowerCase()} ${route.path}`));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if ((item as Record<string, unknown>)[method] && !served.has(`${method} ${path}`)) {
        throw new Error(`OpenAPI document has ${method.toUpperCase()} ${path}, which no route serves`);
      }
    }
  }
  for (const route of routes) {
    const operation = (doc.paths?.[route.path] as Record<string, TOperation> | undefined)?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI document lacks ${route.method} ${route.path}`);
    const responses = (operation.responses ??= {});
    if (route.target.kind === "procedure") {
      addBodyRules(route, operation);
      const success = responses["200"];
      delete responses["200"];
      if (success) {
        const schema = success.content?.["application/json"]?.schema;
        if (schema) success.content!["application/json"]!.schema = withRequestId(schema);
        responses[String(route.successStatus)] = success;
        for (const format of route.files ?? []) {
          success.content![FILE_MEDIA_TYPES[format]] = {
            schema: format === "csv" ? { type: "string" } : { type: "string", contentMediaType: FILE_MEDIA_TYPES[format] },
          };
        }
        if (route.files?.length) {
          success.headers = {
            ...(success.headers as Record<string, unknown> | undefined),
            "Content-Disposition": {
              description: 'With format=csv or xlsx: attachment; filename="…" (the JSON answer has none).',
              schema: { type: "string" },
            },
          };
        }
        for (const other of route.otherSuccess ?? []) {
          responses[String(other.status)] = {
            description: other.description,
            content: {
              "application/json": {
                schema:
                  other.body === "pending_approval"
                    ? withRequestId({
                        type: "object",
                        required: ["data"],
                        properties: { data: { $ref: "#/components/schemas/PendingApproval" } },
                      })
                    : structuredClone(success.content?.["application/json"]?.schema ?? {}),
              },
            },
          };
        }
      }
    }
    // The headers every answer of this operation carries (plain routes declare their own extras).
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) >= 400 || status === "default") continue;
      response.headers = { ...(response.headers as Record<string, unknown> | undefined), ...successHeaders(route) };
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
    operation["x-access"] = route.access.kind;
    if (route.access.kind === "owner_or_agent" && route.access.scope) {
      // One scope as a string (as ever); an operation needing several lists them all.
      if (typeof route.access.scope === "string") operation["x-required-scope"] = route.access.scope;
      else operation["x-required-scopes"] = [...route.access.scope];
    }
    // Reads open to any of several scopes (pinned-wave3 §2.1: ads with ads or finances:observe).
    if (route.access.kind === "owner_or_agent" && route.access.anyScope)
      operation["x-any-of-scopes"] = [...route.access.anyScope];
    const parameters = (operation.parameters ??= []);
    parameters.push({ $ref: "#/components/parameters/ContractMin" });
    if (isWriteMethod(route.method)) operation["x-idempotency"] = route.idempotency;
    if (isWriteMethod(route.method) && route.idempotency === "required") {
      parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
    }
    if (route.experimental) operation["x-experimental"] = true;
    if (route.deprecation) {
      operation.deprecated = true;
      operation["x-sunset"] = route.deprecation.sunset;
    }
  }
  for (const route of routes) if (route.cors) addPreflight(doc, route, errorRefs);
  openResponses(doc);
  // Header components no operation uses (Deprecation, Sunset, Link while none is deprecated).
  const text = JSON.stringify(doc);
  for (const name of Object.keys(doc.components.headers ?? {})) {
    if (!text.includes(`"#/components/headers/${name}"`)) delete doc.components.headers![name];
  }
  return doc;
}

/** A route that allows LANDING_ORIGIN also answers its browser's CORS preflight (cors.ts): OPTIONS on its path. */
function addPreflight(doc: OpenAPIObject, route: TRoute, errorRefs: Record<string, unknown>): void {
  const item = doc.paths![route.path] as Record<string, TOperation>;
  const operation = item[route.method.toLowerCase()]!;
  const text = (description: string) => ({ description, required: true, schema: { type: "string" } });
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (Number(status) >= 400) continue;
    Object.assign((response.headers ??= {}) as Record<string, unknown>, {
      "Access-Control-Allow-Origin": { description: "LANDING_ORIGIN, when the call comes from it.", schema: { type: "string" } },
      Vary: { description: "Origin, when the call comes from LANDING_ORIGIN.", schema: { type: "string" } },
    });
  }
  item.options = {
    operationId: `${String(operation.operationId)}Preflight`,
    summary: `CORS preflight of ${route.method} ${route.path}`,
    description:
      "A browser's preflight from LANDING_ORIGIN (contract: methods POST and OPTIONS) answers 204 with the CORS headers, " +
      "before authentication and without spending a rate limit. From any other origin, or with LANDING_ORIGIN unset, " +
      "OPTIONS answers 405 like any method the path lacks.",
    tags: operation.tags,
    security: [],
    "x-access": "public",
    parameters: [{ $ref: "#/components/parameters/ContractMin" }],
    responses: {
      "204": {
        description: "The preflight is allowed.",
        headers: {
          "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
          "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
          "Access-Control-Allow-Origin": text("LANDING_ORIGIN."),
          "Access-Control-Allow-Methods": text("POST, OPTIONS"),
          "Access-Control-Allow-Headers": text("Content-Type"),
          "Access-Control-Max-Age": {
            description: "Seconds the browser may keep this answer.",
            required: true,
            schema: { type: "integer" },
          },
          Vary: text("Origin"),
        },
      },
      ...structuredClone(errorRefs),
    },
  };
}

/** The input's JSON Schema rules (route-table.ts `bodyRules`) on the request body the generator wrote. */
function addBodyRules(route: TRoute, operation: TOperation): void {
  const body = (operation.requestBody as { content?: Record<string, { schema?: TJson }> } | undefined)?.content?.[
    "application/json"
  ]?.schema;
  if (!route.bodyRules || !body) return;
  const pathParams = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
  for (const [key, rule] of Object.entries(route.bodyRules)) {
    body[key] = key === "required" ? (rule as string[]).filter((name) => !pathParams.has(name)) : structuredClone(rule);
  }
}

/** The headers of a success of this route: always, when counted, when replayed, when deprecated. */
function successHeaders(route: TRoute): Record<string, unknown> {
  const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
  const counted =
    route.access.kind === "owner" || route.access.kind === "owner_or_agent"
      ? {
          "X-RateLimit-Limit": ref("XRateLimitLimit"),
          "X-RateLimit-Remaining": ref("XRateLimitRemaining"),
          "X-RateLimit-Reset": ref("XRateLimitReset"),
        }
      : route.access.kind === "public" && route.access.ipLimit !== "none"
        ? {
            // Per client IP; not sent when the call carries a bearer (then that token's are).
            "X-RateLimit-Limit": optional(HEADERS.XRateLimitLimit),
            "X-RateLimit-Remaining": optional(HEADERS.XRateLimitRemaining),
            "X-RateLimit-Reset": optional(HEADERS.XRateLimitReset),
          }
        : {};
  return {
    "X-Request-Id": ref("XRequestId"),
    "X-Service-Contract": ref("XServiceContract"),
    ...counted,
    ...(isWriteMethod(route.method) && route.idempotency === "required"
      ? { "Idempotent-Replayed": ref("IdempotentReplayed") }
      : {}),
    ...(route.deprecation ? { Deprecation: ref("Deprecation"), Sunset: ref("Sunset"), Link: ref("Link") } : {}),
  };
}

type TJson = Record<string, unknown>;
const isObject = (value: unknown): value is TJson => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Versioning 1 lets a response gain fields and enum values: every schema a response (or the
 * outbound webhook) uses is made open, records without additionalProperties: false and enums as
 * x-extensible-enum. A component that a request uses too is copied first (`<name>Response`), so
 * requests keep their closed enums and, where the server refuses unknown fields, their strictness.
 */
function openResponses(doc: OpenAPIObject): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const componentOf = (ref: unknown) =>
    typeof ref === "string" && ref.startsWith("#/components/schemas/") ? ref.slice("#/components/schemas/".length) : null;

  const usedByRequests = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!isObject(node)) return;
    const name = componentOf(node.$ref);
    if (name && !usedByRequests.has(name)) {
      usedByRequests.add(name);
      collect(schemas[name]);
    }
    for (const value of Object.values(node)) collect(value);
  };
  const operations = Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, TOperation>).filter(isObject),
  ) as TOperation[];
  for (const operation of operations) {
    collect(operation.requestBody);
    collect(operation.parameters);
  }

  const opened = new Set<string>();
  const open = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(open);
    if (!isObject(node)) return;
    const name = componentOf(node.$ref);
    if (name) {
      const target = usedByRequests.has(name) ? `${name}Response` : name;
      if (target !== name && !(target in schemas)) schemas[target] = structuredClone(schemas[name]);
      node.$ref = `#/components/schemas/${target}`;
      if (!opened.has(target)) {
        opened.add(target);
        open(schemas[target]);
      }
      return;
    }
    if (node.additionalProperties === false) delete node.additionalProperties;
    if (Array.isArray(node.enum) && node.enum.length > 1) {
      node["x-extensible-enum"] = node.enum;
      delete node.enum;
    }
    for (const value of Object.values(node)) open(value);
  };
  for (const operation of operations) {
    for (const response of Object.values(operation.responses ?? {})) {
      if (isObject(response) && !("$ref" in response)) open(response.content);
    }
  }
  for (const item of Object.values((doc.webhooks ?? {}) as Record<string, Record<string, TOperation>>)) {
    for (const operation of Object.values(item)) if (isObject(operation)) open((operation as TJson).requestBody);
  }
}

/**
 * The envelope's request_id, added by the REST layer to every body: into an object schema's
 * properties, into each branch of a union, or beside a referenced envelope.
 */
function withRequestId(schema: Record<string, unknown>): Record<string, unknown> {
  const requestId = { type: "string", description: "Also in the X-Request-Id header." };
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      schema[key] = branches.map((branch: Record<string, unknown>) => withRequestId(branch));
      return schema;
    }
  }
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!properties) {
    return { allOf: [schema, { type: "object", required: ["request_id"], properties: { request_id: requestId } }] };
  }
  if (!("request_id" in properties)) {
    properties.request_id = requestId;
    schema.required = [...((schema.required as string[] | undefined) ?? []), "request_id"];
  }
  return schema;
}
