// A seeded fuzzer of the /v1 REST layer (issue 11, "Bad input gets a clear 4xx, never a 500").
// It reads the operations from the handler's route table and their shapes from the live
// OpenAPI document, so a new operation is fuzzed without touching this file. Each request
// starts from a plausible input built from the schema and gets one to three mutations (wrong
// types, missing and extra fields, huge strings, NUL and lone surrogates, deep JSON, numbers
// near 2^53, bad dates, UUIDs, currencies and enums, garbage query strings and headers).
// Webhook bodies are signed with real HMAC, so the mutations reach the item checks; statement
// imports get CSV cells with the same mutations. The MCP companion (/mcp) is fuzzed beside
// them: JSON-RPC messages calling its tools with mutated arguments, and broken envelopes.
// Three assertions: no answer is 5xx (on /mcp, neither a JSON-RPC -32603 nor a tool error
// internal_error), every 4xx carries the contract's error body (on /mcp, a JSON-RPC error will
// do), and a refused request changes no table.
//
//   const world = await createFuzzWorld(api);
//   const report = await runFuzz(api, world, { requests: 1000, seed: 42 });
import { randomUUID } from "node:crypto";
import { todayUtc } from "../../lib/days";
import { appRouter } from "../../server/router";
import { operationDefinitions } from "../../server/rest/route-table";
import { createMcpHandler, type TMcpHandler } from "../../server/mcp/http";
import type { TRoute } from "../../server/rest/route-table";
import { SOCKET_ADDRESS_HEADER } from "../../scripts/serve.mjs";
import {
  billingAHeaders,
  billingBHeaders,
  nowSeconds,
  paymentsAHeaders,
  serviceHeaders,
  socialAdsHeaders,
} from "./webhook-signing";
import { callApi, callMultipart, freshClientIp, type TApiResponse, type TTestApi } from "./api";
import { errorBodyProblem } from "./error-body";
import {
  createdData,
  seedAgent,
  seedBusiness,
  seedDataRequest,
  seedEvent,
  seedImport,
  seedIntegration,
  seedProject,
  seedReservation,
  seedSubscription,
  staticOwner,
} from "./seed";

// --- a seeded PRNG (mulberry32): the same seed gives the same requests ---

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

// --- the hostile values ---

const NUL = "\u0000";
const LONE_HIGH = "\ud800";
const LONE_LOW = "\udfff";

export const BAD_STRINGS = [
  "",
  " ",
  `a${NUL}b`,
  NUL,
  `x${LONE_HIGH}`,
  `${LONE_LOW}y`,
  "\ud83d", // half an emoji
  "\u202e\u0007\u001b[31m",
  "'; DROP TABLE owners; --",
  '=HYPERLINK("http://x")',
  "%00",
  "\\u0000",
  "💸".repeat(50),
  "\ufeff",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
];
export const BAD_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  -1.5,
  0.1,
  1e-7,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];
export const BAD_DATES = [
  "0000-01-01",
  "0001-01-01",
  "1899-12-31",
  "1900-01-00",
  "3000-01-01",
  "9999-12-31",
  "2026-02-30",
  "2026-13-01",
  "2026-1-1",
  "26-01-01",
  "+275760-09-13",
  "-000001-01-01",
  "2026-01-01T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999Z",
  "1899-12-31T23:59:59Z",
  "3000-01-01T00:00:00+14:00",
  "2026-06-01T25:61:61Z",
  "yesterday",
];
export const BAD_UUIDS = [
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "123",
  "0",
  "-1",
  "../../etc/passwd",
  "%00",
  `1b4e28ba-2fa1-11d2-883f-0016d3cca42${NUL}`,
  "1B4E28BA-2FA1-11D2-883F-0016D3CCA427",
  "{1b4e28ba-2fa1-11d2-883f-0016d3cca427}",
];
export const BAD_CURRENCIES = ["eur", "EU", "EURO", "XXX", "ZZZ", "€", "", "E\u0000R", "USD ", "123", "XTS", "EUR,USD"];

// --- the world the fuzzer writes into ---

const PROVIDER_SECRETS = {
  WEBHOOK_SECRET_PAYMENTS_A: "whsec_fuzz_payments_a",
  WEBHOOK_SECRET_SOCIAL_ADS: "fuzz-social-app-secret",
  WEBHOOK_SECRET_SEARCH_ADS: "fuzz-search-relay-secret",
  WEBHOOK_SECRET_BILLING_A: "fuzz-billing-a-secret",
  WEBHOOK_SECRET_BILLING_B: "fuzz-billing-b-secret",
  SOCIAL_ADS_VERIFY_TOKEN: "fuzz-verify-token",
};
/** The environment createTestApi needs for the webhook receivers to check signatures. */
export const FUZZ_ENV: Record<string, string> = {
  ...PROVIDER_SECRETS,
  // Throttling is tested on its own (test/security/public-door, rest/rate-limit); here a 429
  // would only hide the operation behind it. Each request also comes from its own address.
  RATE_LIMIT_PER_MINUTE: "100000000",
};
const GENERIC_SECRET = "fuzz-generic-secret-0123456789abcdef";

export type TFuzzWorld = {
  ownerToken: string | undefined;
  agentToken: string;
  ids: Record<string, string>;
  document: TOpenApi;
  operations: TOperation[];
  /** The MCP companion over the same REST handler, and the tools it lists to the acting agent. */
  mcp: TMcpHandler;
  mcpTools: Array<{ name: string; inputSchema: TSchema }>;
};

type TSchema = Record<string, any>;
type TOpenApi = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, TSchema> } };

export type TOperation = {
  route: TRoute;
  /** The JSON body schema (procedures and JSON plain routes). */
  body?: TSchema;
  multipart: boolean;
  query: Array<{ name: string; schema: TSchema; required: boolean }>;
  pathParams: Array<{ name: string; schema: TSchema }>;
};

/** A business, a project, records of every kind, an agent with every scope, signed integrations. */
export async function createFuzzWorld(api: TTestApi): Promise<TFuzzWorld> {
  const { ownerId } = await staticOwner(api);
  const business = await seedBusiness(api, { name: "Fuzz Ltd" });
  const project = await seedProject(api, business.id, { name: "Fuzz" });
  const today = todayUtc();
  const event = await seedEvent(api, "expense", { business_id: business.id, amount_minor: 1200, occurred_on: today });
  const subscription = await seedSubscription(api, { business_id: business.id, name: "Fuzz SaaS", next_charge_on: today });
  const reservation = await seedReservation(api, { business_id: business.id, purpose: "fuzz" });
  const grants = ["finances:observe", "forecast:observe", "ads"].map((scope) => ({
    scope,
    resource: "*",
    level: "execute" as const,
    daily_limit_minor: 1_000_000,
    monthly_limit_minor: 10_000_000,
    currency: "EUR",
    over_limit: "approval" as const,
  }));
  const actingAgent = await seedAgent(api, { name: "Fuzz agent", grants });
  // The agent the path parameters name (revoking it must not stop the acting agent).
  const victimAgent = await seedAgent(api, { name: "Fuzz victim", grants });
  const approval = await seedDataRequest(api, actingAgent.token);
  const generic = await seedIntegration(api.db, {
    ownerId,
    provider: "generic",
    name: "fuzz generic",
    businessId: business.id,
    secret: GENERIC_SECRET,
  });
  for (const [provider, accountId] of Object.entries(PROVIDER_ACCOUNTS)) {
    await seedIntegration(api.db, { ownerId, provider, name: `fuzz ${provider}`, businessId: business.id, accountId });
  }
  const preview = await seedImport(api, {
    business_id: business.id,
    csv: `Date,Amount,Currency,Description\n${today},-12.00,EUR,Fuzz coffee\n`,
  });

  // A JPY base (mock rate 162.45 per EUR): EUR amounts near 2^53 then overflow the base amount,
  // which every write must refuse with a 4xx (issue 11, item 4).
  createdData(await api.call("PATCH", "/v1/me", { body: { base_currency: "JPY" } }), "a JPY base");

  const document = (await callApi(api.handler, "GET", "/v1/openapi.json", { token: null })).body as TOpenApi;
  const mcp = createMcpHandler({
    v1: api.handler,
    procedures: operationDefinitions(appRouter),
    getDb: async () => api.db,
  });
  const listed = await callMcp(mcp, actingAgent.token, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  const mcpTools = (listed.body?.result?.tools ?? []) as TFuzzWorld["mcpTools"];
  if (mcpTools.length === 0) throw new Error(`fuzz world: /mcp lists no tools (${listed.text.slice(0, 200)})`);
  const world: TFuzzWorld = {
    mcp,
    mcpTools,
    ownerToken: undefined,
    agentToken: actingAgent.token,
    ids: {
      owner: ownerId,
      business: business.id,
      project: project.id,
      event: event.id,
      subscription: subscription.id,
      reservation: reservation.id,
      agent: victimAgent.id,
      approval: approval.id,
      integration: generic,
      import: preview.import_id,
    },
    document,
    operations: operationsOf(api, document),
  };
  for (const [name, id] of Object.entries(world.ids))
    if (typeof id !== "string" || id.length !== 36) throw new Error(`fuzz world: no ${name} id (${String(id)})`);
  return world;
}

const PROVIDER_ACCOUNTS = {
  payments_a: "acct_fuzz",
  social_ads: "act_fuzz",
  search_ads: "123-456-7890",
  billing_a: "sel_fuzz",
  billing_b: "fuzzsite",
};

function operationsOf(api: TTestApi, document: TOpenApi): TOperation[] {
  return api.handler.routes.routes.map((route) => {
    const op = document.paths[route.path]?.[route.method.toLowerCase()] ?? {};
    const content = op.requestBody?.content ?? {};
    const params: any[] = op.parameters ?? [];
    return {
      route,
      body: content["application/json"]?.schema,
      multipart: "multipart/form-data" in content,
      query: params
        .filter((p) => p.in === "query")
        .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: !!p.required })),
      pathParams: params.filter((p) => p.in === "path").map((p) => ({ name: p.name, schema: p.schema ?? {} })),
    };
  });
}

// --- plausible values from a JSON Schema ---

class Generator {
  constructor(
    private readonly rng: Rng,
    readonly world: TFuzzWorld,
  ) {}

  private resolve(schema: TSchema | undefined): TSchema {
    let current = schema ?? {};
    for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
      const name = current.$ref.split("/").pop()!;
      current = this.world.document.components?.schemas?.[name] ?? {};
    }
    return current;
  }

  value(raw: TSchema | undefined, name = "", depth = 0): unknown {
    const schema = this.resolve(raw);
    if (depth > 6) return null;
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum)) return this.rng.pick(schema.enum);
    const union: TSchema[] | undefined = schema.anyOf ?? schema.oneOf;
    if (union) {
      const concrete = union.filter((s) => this.resolve(s).type !== "null");
      return this.value(this.rng.pick(concrete.length > 0 ? concrete : union), name, depth + 1);
    }
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: TSchema) => this.value(s, name, depth + 1)));
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
    switch (type) {
      case "object":
        return this.object(schema, depth);
      case "array": {
        const min = schema.minItems ?? 0;
        const count = Math.min(this.rng.int(min, min + 2), schema.maxItems ?? 3);
        return Array.from({ length: count }, () => this.value(schema.items, name, depth + 1));
      }
      case "integer":
      case "number": {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
        const max = Math.min(schema.maximum ?? 50_000, min + 50_000);
        return this.rng.int(Math.ceil(min), Math.floor(max));
      }
      case "boolean":
        return this.rng.chance(0.5);
      case "string":
        return this.string(schema, name);
      default:
        return schema.properties ? this.object(schema, depth) : "fuzz";
    }
  }

  private object(schema: TSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set<string>(schema.required ?? []);
    for (const [key, property] of Object.entries<TSchema>(schema.properties ?? {})) {
      if (required.has(key) || this.rng.chance(0.4)) out[key] = this.value(property, key, depth + 1);
    }
    if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties === "object") {
      out[`k${this.rng.int(0, 9)}`] = this.value(schema.additionalProperties, "", depth + 1);
    }
    return out;
  }

  /** A known record for id-like names, so the request gets past "not found". */
  idFor(name: string): string {
    const ids = this.world.ids;
    const byName: Record<string, string | undefined> = {
      business_id: ids.business,
      project_id: ids.project,
      agent_id: ids.agent,
      actor_id: ids.agent,
      subscription_id: ids.subscription,
      integration_id: ids.integration,
      fulfills_event_id: ids.event,
      reconciles_event_id: ids.event,
      refunds_event_id: ids.event,
    };
    return byName[name] ?? (this.rng.chance(0.7) ? this.rng.pick(Object.values(ids)) : randomUUID());
  }

  private string(schema: TSchema, name: string): string {
    const today = todayUtc();
    switch (schema.format) {
      case "uuid":
        return this.idFor(name);
      case "date":
        return this.rng.chance(0.8) ? today : `202${this.rng.int(0, 6)}-0${this.rng.int(1, 9)}-1${this.rng.int(0, 9)}`;
      case "date-time":
        return new Date(Date.now() - this.rng.int(0, 86_400_000)).toISOString();
      case "email":
        return `fuzz${this.rng.int(0, 999)}@example.test`;
      case "uri":
        return "https://example.test/hook";
    }
    if (name.endsWith("_id") && /uuid/i.test(JSON.stringify(schema))) return this.idFor(name);
    if (schema.pattern === "^[A-Z]{3}$" || name === "currency" || name.endsWith("_currency"))
      return this.rng.pick(["EUR", "USD"]);
    const min = schema.minLength ?? 1;
    const text = `fuzz ${name || "text"} ${this.rng.int(0, 1e6)}`;
    return text.length >= min ? text.slice(0, schema.maxLength ?? text.length) : text.padEnd(min, "x");
  }
}

// --- mutations ---

type TJson = unknown;

/**
 * JSON nested `levels` deep. Past a few hundred levels it is a placeholder that rawBodyOf
 * expands in the text (JSON.stringify and structuredClone would overflow the stack).
 */
function deepJson(levels: number, inner: TJson = 1): TJson {
  if (levels > 500) return `\u0001DEEP:${levels}\u0001`;
  let value: TJson = inner;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { d: value } : [value];
  return value;
}

/** A value of a hostile kind, by name hint. */
function hostileValue(rng: Rng, key: string): TJson {
  const kind = rng.int(0, 13);
  switch (kind) {
    case 0:
      return rng.pick(BAD_STRINGS);
    case 1:
      return rng.pick(BAD_NUMBERS);
    case 2:
      return rng.pick(BAD_DATES);
    case 3:
      return rng.pick(BAD_UUIDS);
    case 4:
      return rng.pick(BAD_CURRENCIES);
    case 5:
      return "x".repeat(rng.pick([256, 1001, 10_000, 300_000]));
    case 6:
      return deepJson(rng.pick([10, 65, 200, 5_000]));
    case 7:
      return rng.pick([null, true, false, [], {}, [1, "a", null], { nested: { k: NUL } }]);
    case 8:
      return `${rng.pick(["fuzz", "", "a".repeat(30)])}${rng.pick([NUL, LONE_HIGH, LONE_LOW])}${rng.pick(["", "z"])}`;
    case 9:
      return rng.pick(["ACTIVE", "Expense", "month ", "weekly", "archived", "✓", "__proto__", "constructor"]);
    case 10:
      return key.includes("amount") || key.includes("minor") || key.includes("limit")
        ? rng.pick([0, -1, -100, 2 ** 53, 2 ** 53 - 1, -(2 ** 53 - 1), 1e20, 0.5, "100", "1e3"])
        : rng.pick(BAD_NUMBERS);
    case 11:
      return key.includes("on") || key.includes("date") || key.includes("_at") || key === "from" || key === "to"
        ? rng.pick(BAD_DATES)
        : rng.pick(BAD_STRINGS);
    case 12:
      return Array.from({ length: rng.pick([2, 101, 1001]) }, () => rng.pick(BAD_STRINGS));
    default:
      return { [rng.pick(["__proto__", "constructor", "", NUL, "a.b", "x".repeat(300)])]: rng.pick(BAD_STRINGS) };
  }
}

/** Every path to a value inside `root` (objects and arrays), the root included. */
function pathsOf(root: TJson, path: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(path);
  if (path.length > 8) return out;
  if (Array.isArray(root)) root.forEach((item, i) => pathsOf(item, [...path, i], out));
  else if (root && typeof root === "object") for (const [k, v] of Object.entries(root)) pathsOf(v, [...path, k], out);
  return out;
}

function getAt(root: TJson, path: Array<string | number>): TJson {
  return path.reduce<any>((node, key) => (node == null ? undefined : node[key]), root);
}

/** One to three mutations of a JSON value (the root may be replaced). */
export function mutateJson(rng: Rng, input: TJson): TJson {
  let root = structuredClone(input);
  const rounds = rng.int(1, 3);
  for (let r = 0; r < rounds; r++) {
    const paths = pathsOf(root);
    const path = rng.pick(paths);
    const key = String(path.at(-1) ?? "");
    const parent = path.length > 0 ? getAt(root, path.slice(0, -1)) : undefined;
    const op = rng.int(0, 9);
    if (path.length === 0) {
      if (op < 2) root = rng.pick<TJson>([[], "text", 42, null, [root], deepJson(100, root)]);
      else if (root && typeof root === "object" && !Array.isArray(root))
        (root as Record<string, unknown>)[rng.pick(["extra", "__proto__", "id", "owner_id", "created_at", NUL])] = hostileValue(
          rng,
          "extra",
        );
      continue;
    }
    if (op === 0 && parent && typeof parent === "object" && !Array.isArray(parent)) {
      delete (parent as Record<string, unknown>)[key]; // a missing field
    } else if (op === 1 && parent && typeof parent === "object" && !Array.isArray(parent)) {
      (parent as Record<string, unknown>)[`${key}_extra`] = hostileValue(rng, key); // an extra field
    } else if (op === 2) {
      // a wrong type: the value's opposite kind
      const current = getAt(root, path);
      setAt(parent, key, typeof current === "string" ? rng.pick([123, true, null, [current], { v: current }]) : String(current));
    } else {
      setAt(parent, key, hostileValue(rng, key));
    }
  }
  return root;
}

function setAt(parent: TJson, key: string, value: TJson): void {
  if (Array.isArray(parent)) parent[Number(key)] = value;
  else if (parent && typeof parent === "object") (parent as Record<string, unknown>)[key] = value;
}

/** The body as sent: usually JSON.stringify, sometimes a broken or oddly typed text. */
function rawBodyOf(rng: Rng, body: TJson): { text: string; contentType: string | null } {
  const text = (JSON.stringify(body) ?? "null").replace(
    /"\\u0001DEEP:(\d+)\\u0001"/g,
    (_, n: string) => '{"d":'.repeat(Number(n)) + "1" + "}".repeat(Number(n)),
  );
  if (!rng.chance(0.12)) return { text, contentType: "application/json" };
  switch (rng.int(0, 8)) {
    case 0:
      return { text: text.slice(0, Math.max(1, text.length - rng.int(1, 5))), contentType: "application/json" };
    case 1:
      return { text: `\ufeff${text}`, contentType: "application/json" };
    case 2:
      return { text, contentType: rng.pick(["text/plain", "application/x-www-form-urlencoded", "application/xml", "", "json"]) };
    case 3:
      return { text: text.replace(/^\{/, '{"a":1,"a":2,'), contentType: "application/json" };
    case 4:
      return { text: "[".repeat(100_000) + "]".repeat(100_000), contentType: "application/json" };
    case 5:
      return { text: '{"x":"\\u0000","y":"\\ud800","z":"\\udc00\\ud800"}', contentType: "application/json" };
    case 6:
      return { text: text.replace(/"([^"\\]*)"/, '"$1\\u0000"'), contentType: "application/json; charset=utf-8" };
    case 7:
      return { text: `${text}garbage`, contentType: "application/json" };
    default:
      return { text: '{"amount_minor": 9007199254740993, "n": 1e400, "m": -1e400}', contentType: "application/json" };
  }
}

// --- query strings, paths and headers ---

/** encodeURIComponent, except that a lone surrogate goes out as the bytes a sloppy client would send. */
function encode(value: string): string {
  return value
    .split(/([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/)
    .map((part, i) => (i % 2 === 1 ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("");
}

function encodeQueryValue(rng: Rng, value: string): string {
  if (rng.chance(0.15)) return rng.pick(["%00", "%ZZ", "%", "%ED%A0%80", "%C0%80", "%FF%FE", "a%00b", "%E2%80%AE"]);
  return encode(value);
}

function queryString(rng: Rng, gen: Generator, op: TOperation): string {
  const pairs: string[] = [];
  for (const param of op.query) {
    if (!param.required && !rng.chance(0.5)) continue;
    let value = gen.value(param.schema, param.name);
    if (rng.chance(0.5)) value = hostileValue(rng, param.name);
    if (param.name === "cursor" && rng.chance(0.6)) value = hostileCursor(rng);
    if (param.name === "limit" && rng.chance(0.5))
      value = rng.pick(["0", "-1", "201", "1e3", "abc", "9007199254740993", "1.5", ""]);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    pairs.push(`${encode(param.name)}=${encodeQueryValue(rng, String(text).slice(0, 5000))}`);
    if (rng.chance(0.1)) pairs.push(`${encode(param.name)}=${encodeQueryValue(rng, "again")}`); // repeated
  }
  if (rng.chance(0.2)) pairs.push(rng.pick(["unknown=1", "=", "&&", "a[b]=c", "limit[]=1", "__proto__=1", "%00=%00"]));
  return pairs.length > 0 ? `?${pairs.join("&")}` : "";
}

/** A cursor this API never issued: base64url of odd JSON (dates out of range, wrong shapes). */
function hostileCursor(rng: Rng): string {
  const json = rng.pick<unknown>([
    ["0000-01-01T00:00:00Z", randomUUID()],
    ["+275760-09-13T00:00:00.000Z", randomUUID()],
    ["-271821-04-20T00:00:00.000Z", randomUUID()],
    ["9999-12-31T23:59:59.999Z", randomUUID()],
    [1e300, randomUUID()],
    [null, null],
    ["2026-01-01T00:00:00Z", `x${NUL}`],
    { a: 1 },
    "text",
  ]);
  return rng.chance(0.8) ? Buffer.from(JSON.stringify(json)).toString("base64url") : rng.pick(["!!!", "", NUL, "a".repeat(5000)]);
}

function pathOf(rng: Rng, gen: Generator, op: TOperation): string {
  return op.route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = op.pathParams.find((p) => p.name === name);
    if (rng.chance(0.3)) return encode(String(hostileValue(rng, name))).slice(0, 3000) || "%20";
    if (param && Array.isArray(param.schema.enum)) return rng.pick(param.schema.enum);
    if (name === "provider") return rng.pick([...Object.keys(PROVIDER_ACCOUNTS), "generic", "bank_provider_a"]);
    const byPath: Array<[RegExp, string]> = [
      [/^\/v1\/businesses\//, "business"],
      [/^\/v1\/projects\//, "project"],
      [/^\/v1\/agents\//, "agent"],
      [/^\/v1\/approvals\//, "approval"],
      [/^\/v1\/subscriptions\//, "subscription"],
      [/^\/v1\/budget-reservations\//, "reservation"],
      [/^\/v1\/events\//, "event"],
      [/^\/v1\/imports\//, "import"],
      [/^\/v1\/webhooks\/generic\//, "integration"],
    ];
    const kind = byPath.find(([pattern]) => pattern.test(op.route.path))?.[1];
    return kind && rng.chance(0.85) ? world(gen).ids[kind]! : randomUUID();
  });
}

const world = (gen: Generator) => gen.world;

/** Headers used as values: Idempotency-Key, User-Agent, X-Forwarded-For, the contract header. */
function hostileHeaders(rng: Rng, headers: Record<string, string>): void {
  if (!rng.chance(0.15)) return;
  // A NUL, CR or LF cannot travel in an HTTP header (fetch's Headers refuses it, as Node's
  // parser does on the wire): the worst that arrives is other control characters and latin1.
  const odd = rng.pick(["", " ", "\u0001\u0002", "é\u00ff", "a".repeat(300), "a".repeat(9000), "\t", "${jndi:x}"]);
  const name = rng.pick(["idempotency-key", "user-agent", "x-forwarded-for", "x-service-contract-min", "content-length"]);
  headers[name] = name === "content-length" ? rng.pick(["-1", "abc", "99999999999", "1e3"]) : odd;
}

// --- one request ---

export type TRequest = {
  method: string;
  path: string;
  actor: "owner" | "agent" | "none" | "junk";
  body?: string;
  contentType?: string | null;
  headers: Record<string, string>;
  multipart?: { fields: Record<string, string>; file?: string };
};

function webhookRequest(rng: Rng, gen: Generator, op: TOperation, path: string, headers: Record<string, string>): TRequest {
  const providerMatch = /^\/v1\/webhooks\/([a-z_]+)$/.exec(path);
  const provider = providerMatch?.[1];
  const generic = path.startsWith("/v1/webhooks/generic/");
  const base = generic
    ? {
        events: [gen.value(op.body?.properties?.events?.items ?? genericEventSchema(gen), "", 0), genericEvent(rng)],
        signals: rng.chance(0.3) ? [gen.value(op.body?.properties?.signals?.items, "", 0)] : undefined,
      }
    : providerSample(rng, provider ?? "");
  const body = rng.chance(0.9) ? mutateJson(rng, base) : base;
  const raw = rawBodyOf(rng, body);
  let signed: Record<string, string> = {};
  if (rng.chance(0.92)) {
    if (generic) signed = serviceHeaders(GENERIC_SECRET, raw.text);
    else if (provider === "payments_a") signed = paymentsAHeaders(PROVIDER_SECRETS.WEBHOOK_SECRET_PAYMENTS_A, raw.text);
    else if (provider === "social_ads") signed = socialAdsHeaders(PROVIDER_SECRETS.WEBHOOK_SECRET_SOCIAL_ADS, raw.text);
    else if (provider === "search_ads") signed = serviceHeaders(PROVIDER_SECRETS.WEBHOOK_SECRET_SEARCH_ADS, raw.text);
    else if (provider === "billing_a") signed = billingAHeaders(PROVIDER_SECRETS.WEBHOOK_SECRET_BILLING_A, raw.text);
    else if (provider === "billing_b") signed = billingBHeaders(PROVIDER_SECRETS.WEBHOOK_SECRET_BILLING_B, raw.text);
  }
  const { "content-type": _signedType, ...signature } = signed;
  return {
    method: "POST",
    path,
    actor: "none",
    body: raw.text,
    contentType: raw.contentType,
    headers: { ...headers, ...signature },
  };
}

const genericEventSchema = (gen: Generator) => world(gen).document.components?.schemas?.GenericWebhookEvent;

function genericEvent(rng: Rng): Record<string, unknown> {
  return {
    external_id: `fz-${rng.int(0, 1e9)}`,
    type: rng.pick(["revenue", "expense", "ad_spend", "refund"]),
    state: "actual",
    amount_minor: rng.int(1, 100_000),
    currency: "EUR",
    occurred_on: todayUtc(),
    payload: { platform: "fuzz", note: "ok" },
  };
}

/** A delivery each platform would send, for a connected account (mutated afterwards). */
function providerSample(rng: Rng, provider: string): unknown {
  const n = rng.int(0, 1e9);
  const today = todayUtc();
  switch (provider) {
    case "payments_a":
      return {
        id: `evt_${n}`,
        type: rng.pick(["charge.succeeded", "charge.refunded", "payout.paid", "charge.failed"]),
        account: PROVIDER_ACCOUNTS.payments_a,
        created: nowSeconds(),
        data: { object: { id: `ch_${n}`, object: "charge", amount: rng.int(1, 99_999), currency: "eur", created: nowSeconds() } },
      };
    case "social_ads":
      return {
        object: "ad_account",
        entry: [
          {
            id: PROVIDER_ACCOUNTS.social_ads,
            time: nowSeconds(),
            changes: [
              {
                field: "spend",
                value: { date: today, level: "campaign", campaign_id: `c${n}`, spend: "10.00", currency: "EUR", impressions: 1 },
              },
            ],
          },
        ],
      };
    case "search_ads":
      return {
        customer_id: PROVIDER_ACCOUNTS.search_ads,
        reports: [{ date: today, campaign_id: String(n), cost_micros: "12340000", currency: "EUR", clicks: 3 }],
        alerts: [{ id: `al_${n}`, type: "budget_limited", campaign_id: "1", occurred_at: new Date().toISOString() }],
      };
    case "billing_a":
      return {
        event_id: `bevt_${n}`,
        event_type: "subscription.created",
        occurred_at: new Date().toISOString(),
        seller_id: PROVIDER_ACCOUNTS.billing_a,
        data: {
          id: `sub_${n}`,
          customer_id: "ctm_1",
          status: "active",
          currency_code: "EUR",
          items: [{ plan: "Pro", unit_price_minor: 2900, quantity: 1, interval: "month" }],
        },
      };
    case "billing_b":
      return {
        id: `ev_${n}`,
        event_type: "subscription_created",
        occurred_at: nowSeconds(),
        site: PROVIDER_ACCOUNTS.billing_b,
        content: { subscription: { id: `sub_${n}`, customer_id: "cus_1", status: "active", currency_code: "USD", mrr: 5000 } },
      };
    default:
      return { anything: n };
  }
}

function csvCell(rng: Rng, kind: "date" | "amount" | "currency" | "text"): string {
  if (rng.chance(0.6)) {
    if (kind === "date") return todayUtc();
    if (kind === "amount") return `-${rng.int(1, 999)}.${rng.int(10, 99)}`;
    if (kind === "currency") return "EUR";
    return `Shop ${rng.int(0, 999)}`;
  }
  return rng.pick([
    ...BAD_DATES,
    ...BAD_CURRENCIES,
    "9007199254740993",
    "-9007199254740993.99",
    "1e308",
    "99999999999999999999999",
    "1,000,000,000,000,000.00",
    `a${NUL}b`,
    `${LONE_HIGH}x`,
    '"unterminated',
    "=cmd|' /C calc'!A0",
    "x".repeat(5000),
    "",
  ]);
}

function importRequest(rng: Rng, gen: Generator, path: string, headers: Record<string, string>): TRequest {
  const rows = Array.from({ length: rng.int(1, 6) }, () =>
    [csvCell(rng, "date"), csvCell(rng, "amount"), csvCell(rng, "currency"), csvCell(rng, "text")]
      .map((cell) => (rng.chance(0.3) ? `"${cell.replaceAll('"', '""')}"` : cell))
      .join(","),
  );
  const fields: Record<string, string> = { business_id: world(gen).ids.business! };
  if (rng.chance(0.3)) fields.business_id = String(hostileValue(rng, "business_id"));
  if (rng.chance(0.2)) fields.mapping = JSON.stringify(mutateJson(rng, { date: "Date", amount: "Amount" }));
  if (rng.chance(0.1)) fields.currency_default = rng.pick(BAD_CURRENCIES);
  if (rng.chance(0.1)) fields.preset = rng.pick(["generic", "nope", NUL, "x".repeat(300)]);
  return {
    method: "POST",
    path,
    actor: rng.chance(0.85) ? "owner" : "agent",
    headers,
    multipart: { fields, file: rng.chance(0.95) ? ["Date,Amount,Currency,Description", ...rows].join("\n") : undefined },
  };
}

/** The path the MCP messages go to (not an operation of the route table). */
export const MCP_FUZZ_PATH = "/mcp";

/** A JSON-RPC message for /mcp: mostly tool calls with plausible-then-mutated arguments, some broken envelopes. */
function mcpRequest(rng: Rng, gen: Generator, headers: Record<string, string>): TRequest {
  const roll = rng.next();
  const actor = roll < 0.7 ? "agent" : roll < 0.9 ? "owner" : roll < 0.95 ? "none" : "junk";
  const id = rng.chance(0.9) ? rng.int(1, 1e6) : hostileValue(rng, "id");
  let message: TJson;
  const kind = rng.next();
  if (kind < 0.6) {
    const tool = rng.pick(gen.world.mcpTools);
    let args = gen.value(tool.inputSchema) as Record<string, unknown>;
    if (actor !== "owner" && args && typeof args === "object") args.reason ??= "fuzzing the MCP companion";
    if (rng.chance(0.85)) args = mutateJson(rng, args) as Record<string, unknown>;
    const name = rng.chance(0.95) ? tool.name : rng.pick(["no_such_tool", "", NUL, "x".repeat(500)]);
    message = { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
  } else if (kind < 0.7) {
    message = { jsonrpc: "2.0", id, method: rng.pick(["tools/list", "resources/list", "prompts/list", "ping"]) };
  } else if (kind < 0.78) {
    message = {
      jsonrpc: "2.0",
      id,
      method: "resources/read",
      params: { uri: rng.pick(["finance://contract/operations.tsv", "file:///etc/passwd", "finance://../../x", NUL, ""]) },
    };
  } else if (kind < 0.85) {
    message = mutateJson(rng, {
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
    });
  } else {
    // Broken envelopes: a batch, no version, no method, params of the wrong kind, a notification.
    message = rng.pick<TJson>([
      [
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ],
      { id, method: "tools/list" },
      { jsonrpc: "2.0", id },
      { jsonrpc: "2.0", id, method: "tools/call", params: [1, 2] },
      { jsonrpc: "2.0", id, method: "tools/call", params: { name: 5, arguments: "x" } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "1.0", id, method: "tools/list" },
      hostileValue(rng, "body"),
    ]);
  }
  const raw = rawBodyOf(rng, message);
  return { method: "POST", path: MCP_FUZZ_PATH, actor, headers, body: raw.text, contentType: raw.contentType };
}

/** One message to the MCP handler in process, as its HTTP server would hand it over. */
async function callMcp(
  mcp: TMcpHandler,
  token: string | null | undefined,
  body: string,
  options: { contentType?: string | null; headers?: Record<string, string> } = {},
): Promise<TApiResponse> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    try {
      headers.set(name, value);
    } catch {
      // A header value fetch's Headers refuses never reaches a server either.
    }
  }
  headers.set("accept", "application/json, text/event-stream");
  if (options.contentType !== null) headers.set("content-type", options.contentType ?? "application/json");
  if (token) headers.set("authorization", `Bearer ${token}`);
  headers.set(SOCKET_ADDRESS_HEADER, freshClientIp());
  const response = await mcp(new Request(`http://127.0.0.1${MCP_FUZZ_PATH}`, { method: "POST", headers, body }));
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * What is wrong with an /mcp answer, or null: a 4xx carries the contract's error body (the
 * door) or a JSON-RPC error; a 200 is never a JSON-RPC internal error (-32603) nor a tool
 * error whose body is internal_error (a /v1 500 behind the tool).
 */
function mcpAnswerProblem(response: TApiResponse): { kind: "5xx" | "error_body"; detail: string } | null {
  const rpc = response.body;
  const rpcError = rpc && typeof rpc === "object" && !Array.isArray(rpc) ? rpc.error : undefined;
  if (response.status >= 400) {
    if (rpcError && typeof rpcError.code === "number" && rpcError.code <= -32600 && rpcError.code >= -32700) return null;
    const problem = errorBodyProblem(response);
    return problem ? { kind: "error_body", detail: `${problem}: ${response.text.slice(0, 300)}` } : null;
  }
  if (rpcError?.code === -32603) return { kind: "5xx", detail: `JSON-RPC internal error: ${response.text.slice(0, 300)}` };
  const tool = rpc?.result?.structuredContent;
  if (rpc?.result?.isError && tool?.error?.code === "internal_error")
    return { kind: "5xx", detail: `tool error internal_error: ${response.text.slice(0, 300)}` };
  return null;
}

/** Whether an /mcp answer refused the message (so it must have written nothing). */
function mcpRefused(response: TApiResponse): boolean {
  const rpc = response.body;
  return response.status >= 400 || !!rpc?.error || !!rpc?.result?.isError;
}

function buildRequest(rng: Rng, gen: Generator, op: TOperation): TRequest {
  const headers: Record<string, string> = {};
  hostileHeaders(rng, headers);
  const path = pathOf(rng, gen, op);
  const query = queryString(rng, gen, op);
  if (op.route.access.kind === "signature") return webhookRequest(rng, gen, op, path, headers);
  if (op.multipart) return importRequest(rng, gen, path, headers);
  const roll = rng.next();
  const actor = roll < 0.6 ? "owner" : roll < 0.95 ? "agent" : roll < 0.975 ? "none" : "junk";
  if (op.route.method === "GET" || op.route.method === "DELETE" || !op.body) {
    const body = op.route.method === "GET" ? undefined : rng.chance(0.8) ? "{}" : JSON.stringify(hostileValue(rng, "body"));
    return { method: op.route.method, path: path + query, actor, headers, body, contentType: "application/json" };
  }
  let value = gen.value(op.body);
  if (actor === "agent" && value && typeof value === "object" && !Array.isArray(value))
    (value as Record<string, unknown>).reason ??= "fuzzing the write path";
  if (rng.chance(0.92)) value = mutateJson(rng, value);
  const raw = rawBodyOf(rng, value);
  return { method: op.route.method, path: path + query, actor, headers, body: raw.text, contentType: raw.contentType };
}

async function send(api: TTestApi, fuzzWorld: TFuzzWorld, request: TRequest, rng: Rng): Promise<TApiResponse> {
  if (request.path === MCP_FUZZ_PATH) {
    const token =
      request.actor === "owner"
        ? fuzzWorld.ownerToken
        : request.actor === "agent"
          ? fuzzWorld.agentToken
          : request.actor === "junk"
            ? "junk-token"
            : null;
    return callMcp(fuzzWorld.mcp, token ?? null, request.body ?? "", {
      contentType: request.contentType,
      headers: request.headers,
    });
  }
  const token =
    request.actor === "owner"
      ? fuzzWorld.ownerToken
      : request.actor === "agent"
        ? fuzzWorld.agentToken
        : request.actor === "junk"
          ? "junk-token"
          : null;
  const idempotencyKey = request.headers["idempotency-key"] ?? (rng.chance(0.03) ? null : undefined);
  const headers = { ...request.headers };
  delete headers["idempotency-key"];
  if (request.multipart) {
    return callMultipart(
      api.handler,
      request.path,
      {
        fields: request.multipart.fields,
        file: request.multipart.file === undefined ? undefined : { bytes: request.multipart.file },
      },
      { token, headers, idempotencyKey, clientIp: freshClientIp() },
    );
  }
  if (request.contentType) headers["content-type"] = request.contentType;
  return callApi(api.handler, request.method, request.path, {
    rawBody: request.body,
    token: request.actor === "none" && request.path.startsWith("/v1/webhooks") ? null : token,
    headers,
    idempotencyKey,
    clientIp: freshClientIp(),
  });
}

// --- the checks ---

/**
 * Tables a refused request may legitimately touch: the audit log (denials are audited), the
 * idempotency records (404 and 409 answers are stored for replay, by contract), rate-limit
 * counters, and a session's last use.
 */
const BOOKKEEPING_TABLES = new Set([
  "audit_entries",
  "idempotency_records",
  "rate_limit_buckets",
  "sessions",
  "_prisma_migrations",
]);

export type TTableState = Map<string, string>;

/** Row count and newest row version (xmin) of every table but bookkeeping: inserts, updates and deletes all show. */
export async function tableState(api: TTestApi): Promise<TTableState> {
  const tables = await tableNames(api);
  const sql = tables
    .map((t) => `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text AS s FROM "${t}"`)
    .join(" UNION ALL ");
  const rows = (await api.db.$queryRawUnsafe(sql)) as Array<{ t: string; s: string }>;
  return new Map(rows.map((r) => [r.t, r.s]));
}

const tableCache = new WeakMap<object, string[]>();
async function tableNames(api: TTestApi): Promise<string[]> {
  const cached = tableCache.get(api.db);
  if (cached) return cached;
  const rows = (await api.db.$queryRawUnsafe(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  )) as Array<{ t: string }>;
  const names = rows.map((r) => r.t).filter((t) => !BOOKKEEPING_TABLES.has(t) && /^\w+$/.test(t));
  tableCache.set(api.db, names);
  return names;
}

function changedTables(before: TTableState, after: TTableState): string[] {
  return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
}

// --- the run ---

export type TFuzzFinding = {
  index: number;
  kind: "5xx" | "error_body" | "refused_write";
  status: number;
  method: string;
  path: string;
  actor: string;
  detail: string;
  /** The request body (cut at 600 characters) so the case can be replayed by hand. */
  body?: string;
};

export type TFuzzReport = {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, number>;
  serverErrors: number;
  refused: number;
  /** Refused requests after which a table had changed. */
  refusedWithWrites: number;
  findings: TFuzzFinding[];
  ms: number;
};

export type TFuzzOptions = {
  requests: number;
  seed: number;
  /** Called every `every` requests with the count so far. */
  progress?: (done: number) => void;
  /**
   * Request classes left out (each names the issue item that owns the fix; the lead turns
   * them back on after merging).
   */
  skip?: (request: TRequest, op: TOperation) => boolean;
};

/** MCP messages per round of every operation (~5 % of the requests). */
const MCP_PER_ROUND = 6;

export async function runFuzz(api: TTestApi, fuzzWorld: TFuzzWorld, options: TFuzzOptions): Promise<TFuzzReport> {
  const rng = new Rng(options.seed);
  const gen = new Generator(rng, fuzzWorld);
  const report: TFuzzReport = {
    seed: options.seed,
    requests: 0,
    byStatus: {},
    byOperation: {},
    serverErrors: 0,
    refused: 0,
    refusedWithWrites: 0,
    findings: [],
    ms: 0,
  };
  const started = performance.now();
  let order: Array<TOperation | "mcp"> = [];
  let state = await tableState(api);
  for (let index = 0; index < options.requests; index++) {
    // Each round: every operation once, and a few MCP messages among them.
    if (order.length === 0) order = rng.shuffle([...fuzzWorld.operations, ...Array<"mcp">(MCP_PER_ROUND).fill("mcp")]);
    const op = order.pop()!;
    const request = op === "mcp" ? mcpRequest(rng, gen, {}) : buildRequest(rng, gen, op);
    if (op !== "mcp" && options.skip?.(request, op)) {
      index--;
      continue;
    }
    const response = await send(api, fuzzWorld, request, rng);
    const after = await tableState(api);
    report.requests++;
    report.byStatus[response.status] = (report.byStatus[response.status] ?? 0) + 1;
    const opName = op === "mcp" ? `POST ${MCP_FUZZ_PATH}` : `${op.route.method} ${op.route.path}`;
    report.byOperation[opName] = (report.byOperation[opName] ?? 0) + 1;
    const finding = (kind: TFuzzFinding["kind"], detail: string) =>
      report.findings.push({
        index,
        kind,
        status: response.status,
        method: request.method,
        path: request.path.slice(0, 300),
        actor: request.actor,
        detail,
        body: (request.body ?? JSON.stringify(request.multipart ?? null)).slice(0, 600),
      });
    if (op === "mcp") {
      const problem = mcpAnswerProblem(response);
      if (problem?.kind === "5xx") report.serverErrors++;
      if (problem) finding(problem.kind, problem.detail);
      if (mcpRefused(response)) {
        report.refused++;
        const changed = changedTables(state, after);
        if (changed.length > 0) {
          report.refusedWithWrites++;
          finding("refused_write", `tables changed: ${changed.join(", ")}`);
        }
      }
    } else if (response.status >= 500) {
      report.serverErrors++;
      finding("5xx", response.text.slice(0, 300));
    } else if (response.status >= 400) {
      report.refused++;
      const problem = errorBodyProblem(response);
      if (problem) finding("error_body", `${problem}: ${response.text.slice(0, 300)}`);
      const changed = changedTables(state, after);
      if (changed.length > 0) {
        report.refusedWithWrites++;
        finding("refused_write", `tables changed: ${changed.join(", ")}`);
      }
    }
    state = after;
    if (options.progress && (index + 1) % 1000 === 0) options.progress(index + 1);
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** A short text of the findings, grouped (for a failure message or the script's output). */
export function describeFindings(report: TFuzzReport, max = 20): string {
  const groups = new Map<string, TFuzzFinding[]>();
  for (const f of report.findings) {
    const key = `${f.kind} ${f.status} ${f.method} ${f.path.split("?")[0]!.replace(/[0-9a-f-]{36}/g, "{id}")}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const lines = [`seed ${report.seed}: ${report.findings.length} findings in ${groups.size} groups`];
  for (const [key, items] of [...groups].slice(0, max)) {
    const first = items[0]!;
    lines.push(`- ${key} ×${items.length} (first: request #${first.index}, ${first.actor}) ${first.detail}`);
    lines.push(`    path: ${first.path}`);
    if (first.body) lines.push(`    body: ${first.body}`);
  }
  return lines.join("\n");
}
