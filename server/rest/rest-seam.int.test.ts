// The seam between the REST layer and the procedures, pinned where a dependency upgrade (tRPC,
// trpc-to-openapi, zod) could move it: query strings are converted by their schemas, JSON
// bodies never are, odd query names stay harmless, path parameters win; the request context
// is made once per request; and the layer's own SQL on an authenticated GET is counted.
import type { SqlDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createFixtureRouter } from "../../test/helpers/fixture-router";
import { seedAgent } from "../../test/helpers/seed";
import { callApi, createTestApi, OWNER_TOKEN, type TTestApi } from "../../test/helpers/api";
import { clientIp, SOCKET_ADDRESS_HEADER } from "../auth/client-ip";
import { openTarget } from "../db/adapters";
import { PrismaClient } from "../db/generated/client";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";
import { zQueryNumber } from "../shared/schemas";
import { mergeRouters, ownerOrAgentProcedure, router } from "../trpc/init";
import type { TPlainRoute } from "./plain-route";
import { createRestHandler, type TRestHandler } from "./rest-handler";

// Counts how often the client IP is derived (once per request, by the request context).
vi.mock("../auth/client-ip", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../auth/client-ip")>();
  return { ...actual, clientIp: vi.fn(actual.clientIp) };
});

/** Echoes what a procedure receives: its parsed input and the request's part of its context. */
const contextProbe = ownerOrAgentProcedure()
  .meta({ openapi: { method: "GET", path: "/v1/test/context/{id}" }, successStatus: 200 })
  .input(z.looseObject({ id: z.string(), n: zQueryNumber().int().optional() }))
  .output(z.object({ data: z.record(z.string(), z.unknown()) }))
  .query(({ ctx, input }) => ({
    data: {
      input,
      request_id: ctx.requestId,
      ip: ctx.ip,
      user_agent: ctx.userAgent,
      now: ctx.clock.now().toISOString(),
    },
  }));

/** A plain route that echoes the request context it is handed. */
const plainProbe: TPlainRoute = {
  method: "GET",
  path: "/v1/test/plain-context",
  access: { kind: "owner" },
  openapi: { responses: { "200": { description: "The context" } } },
  handle: async (request) => ({
    status: 200,
    headers: {},
    kind: "envelope",
    body: JSON.stringify({
      data: {
        request_id: request.requestId,
        ip: request.ip,
        user_agent: request.userAgent,
        now: request.clock.now().toISOString(),
      },
    }),
  }),
};

const START = new Date("2031-05-01T10:00:00.000Z");
const testRouter = mergeRouters(createFixtureRouter(), router({ contextProbe }));

let api: TTestApi;
let handler: TRestHandler;
const call = (method: string, path: string, options?: Parameters<typeof callApi>[3]) => callApi(handler, method, path, options);

beforeAll(async () => {
  api = await createTestApi({ router: testRouter });
  handler = createRestHandler({
    router: testRouter,
    plainRoutes: [plainProbe],
    getDb: async () => api.db,
    clock: fixedClock(START),
  });
});
afterAll(async () => api?.close());

function expectValidation(response: { status: number; body: any; text: string }, path: string): void {
  expect(response.status, response.text).toBe(400);
  expect(response.body.error.code).toBe("validation_error");
  expect(response.body.error.details.issues[0].path).toBe(path);
}

describe("query strings: each schema converts its own fields", () => {
  it("?limit=1 is the number 1; abc, empty, 1.5, 0, 201 and a repeated limit are 400 naming limit", async () => {
    for (const name of ["Q one", "Q two"]) await api.call("POST", "/v1/businesses", { body: { name, currency: "EUR" } });
    const page = await api.call("GET", "/v1/businesses?limit=1");
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.page.has_more).toBe(true);
    for (const limit of ["abc", "", "1.5", "0", "201", "1&limit=2"]) {
      expectValidation(await api.call("GET", `/v1/businesses?limit=${limit}`), "limit");
    }
  });

  it("converts ?offset of GET /v1/imports/{id} before the import is even looked up", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    expectValidation(await api.call("GET", `/v1/imports/${id}?offset=abc`), "offset");
    expect((await api.call("GET", `/v1/imports/${id}?offset=10`)).status).toBe(404);
  });

  it("reads query booleans by their words: personal=false is false, not a truthy string", async () => {
    expect((await api.call("GET", "/v1/events?personal=false")).status).toBe(200);
    expect((await api.call("GET", "/v1/events?personal=1")).status).toBe(200);
    for (const personal of ["", "yes", "true&personal=false"]) {
      expectValidation(await api.call("GET", `/v1/events?personal=${personal}`), "personal");
    }
  });

  it("hands the procedure numbers as numbers and keeps unknown parameters out of the way", async () => {
    const response = await call("GET", "/v1/test/context/abc?n=5&extra=x");
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.input).toEqual({ id: "abc", n: 5, extra: "x" });
    expectValidation(await call("GET", "/v1/test/context/abc?n=five"), "n");
  });

  it.each(["__proto__=1", "__proto__=1&__proto__=2", "constructor=1", "constructor=1&constructor=2", "toString=1"])(
    "?%s is harmless on a list and reaches no procedure as a prototype",
    async (query) => {
      const list = await api.call("GET", `/v1/businesses?${query}&limit=1`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.data).toHaveLength(1);
      const probe = await call("GET", `/v1/test/context/abc?${query}`);
      expect(probe.status, probe.text).toBe(200);
      expect(probe.body.data.input.id).toBe("abc");
      expect(Object.keys(probe.body.data.input)).not.toContain("__proto__");
    },
  );
});

describe("JSON bodies keep their types", () => {
  it("refuses a number sent as a string, and a boolean sent as a word, with 400 naming the field", async () => {
    const expense = { personal: true, amount_minor: 100, currency: "EUR", occurred_on: "2024-05-01" };
    for (const [field, value] of [
      ["amount_minor", "100"],
      ["amount_minor", ""],
      ["personal", "true"],
    ] as const) {
      expectValidation(await api.call("POST", "/v1/expenses", { body: { ...expense, [field]: value } }), field);
    }
    expect(await api.db.financialEvent.count()).toBe(0);
    const accepted = await api.call("POST", "/v1/expenses", { body: expense });
    expect(accepted.status, accepted.text).toBe(201);
  });

  it("stays so after query strings were converted (no conversion leaks from a query schema into a body)", async () => {
    await api.call("GET", "/v1/businesses?limit=2");
    await api.call("GET", "/v1/events?limit=2&personal=true");
    const response = await api.call("POST", "/v1/budget-reservations", {
      body: { personal: true, amount_minor: "5", currency: "EUR", purpose: "typed" },
    });
    expectValidation(response, "amount_minor");
  });
});

describe("path parameters", () => {
  it("win over a body field or query parameter of the same name", async () => {
    const a = (await api.call("POST", "/v1/businesses", { body: { name: "Path A", currency: "EUR" } })).body.data;
    const b = (await api.call("POST", "/v1/businesses", { body: { name: "Path B", currency: "EUR" } })).body.data;
    const patched = await api.call("PATCH", `/v1/businesses/${a.id}`, { body: { id: b.id, name: "Renamed A" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.id).toBe(a.id);
    expect((await api.call("GET", `/v1/businesses/${b.id}`)).body.data.name).toBe("Path B");
    expect((await api.call("GET", `/v1/businesses/${a.id}?id=${b.id}`)).body.data.name).toBe("Renamed A");
  });

  it("arrive as they are in the URL (percent-encoded), then go through the schema", async () => {
    expect((await call("GET", "/v1/test/context/a%20b")).body.data.input.id).toBe("a%20b");
    expectValidation(await api.call("GET", "/v1/businesses/not-a-uuid"), "id");
  });
});

describe("the request context is made once per request and passed down", () => {
  const headers = { [SOCKET_ADDRESS_HEADER]: "203.0.113.9", "user-agent": "seam-test/1.0" };

  it.each([
    ["a procedure", "/v1/test/context/abc"],
    ["a plain route", "/v1/test/plain-context"],
  ])("gives %s the request's id, client IP, user agent and clock, deriving the IP once", async (_kind, path) => {
    vi.mocked(clientIp).mockClear();
    const response = await call("GET", path, { headers });
    expect(response.status, response.text).toBe(200);
    expect(vi.mocked(clientIp)).toHaveBeenCalledTimes(1);
    expect(response.body.data).toMatchObject({
      request_id: response.headers.get("x-request-id"),
      ip: "203.0.113.9",
      user_agent: "seam-test/1.0",
      now: START.toISOString(),
    });
  });

  it("derives the IP once on a write too (authentication, idempotency, the procedure, audit)", async () => {
    vi.mocked(clientIp).mockClear();
    const response = await call("POST", "/v1/businesses", { body: { name: "Once", currency: "EUR" }, headers });
    expect(response.status, response.text).toBe(201);
    expect(vi.mocked(clientIp)).toHaveBeenCalledTimes(1);
  });
});

/** A driver adapter factory that records every SQL statement Prisma sends through it. */
function countingFactory(inner: SqlDriverAdapterFactory, statements: string[]): SqlDriverAdapterFactory {
  const recording = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object) as unknown;
        if (typeof value !== "function") return value;
        if (property === "queryRaw" || property === "executeRaw") {
          return (query: SqlQuery) => {
            statements.push(query.sql);
            return (value as (query: SqlQuery) => Promise<unknown>).call(object, query);
          };
        }
        if (property === "startTransaction" || property === "connect") {
          return async (...args: unknown[]) =>
            recording(await (value as (...a: unknown[]) => Promise<object>).apply(object, args));
        }
        return (value as (...a: unknown[]) => unknown).bind(object);
      },
    });
  return recording(inner);
}

describe("the layer's own SQL on an authenticated GET", () => {
  // A procedure that reads nothing: every statement counted is the layer's (authentication and
  // the rate limit's lease). A lease covers 50 requests at the tests' limit (rate-limit.ts).
  const statements: string[] = [];
  let counted: PrismaClient;
  let countedHandler: TRestHandler;
  let clock: ReturnType<typeof fixedClock>;

  beforeAll(async () => {
    const opened = await openTarget(api.database.target);
    counted = new PrismaClient({ adapter: countingFactory(opened.factory, statements) });
    clock = fixedClock(START);
    countedHandler = createRestHandler({ router: testRouter, getDb: async () => counted, clock });
  });
  afterAll(async () => counted?.$disconnect());

  async function statementsOf(token: string): Promise<string[]> {
    statements.length = 0;
    const response = await callApi(countedHandler, "GET", "/v1/test/context/abc", { token });
    expect(response.status, response.text).toBe(200);
    return [...statements];
  }

  it("is 0 for the static owner token while a lease lasts, 1 (the next lease) every 50 requests", async () => {
    // Once per database and process the static owner is looked up (or created): not per request.
    clock.set(START);
    await statementsOf(OWNER_TOKEN);
    clock.set(new Date(START.getTime() + 60_000));
    expect((await statementsOf(OWNER_TOKEN)).map(kindOf)).toEqual(["lease rate_limit_buckets"]);
    for (let i = 2; i <= 50; i++) expect(await statementsOf(OWNER_TOKEN), `request ${i}`).toEqual([]);
    expect((await statementsOf(OWNER_TOKEN)).map(kindOf)).toEqual(["lease rate_limit_buckets"]); // the 51st
  });

  it("is 1 for an owner session (its lookup), plus the lease at the start of a window", async () => {
    clock.set(new Date(START.getTime() + 120_000));
    const owner = await api.db.owner.findFirstOrThrow();
    const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
    expect((await statementsOf(token)).map(kindOf)).toEqual(["select sessions", "lease rate_limit_buckets"]);
    expect((await statementsOf(token)).map(kindOf)).toEqual(["select sessions"]);
  });

  it("is 3 for an agent token (token, agent, grants), plus the lease at the start of a window", async () => {
    clock.set(new Date(START.getTime() + 180_000));
    const agent = await seedAgent(api, { name: "Counted agent" });
    expect((await statementsOf(agent.token)).map(kindOf)).toEqual([
      "select agent_tokens",
      "select agents",
      "select agent_grants",
      "lease rate_limit_buckets",
    ]);
    expect((await statementsOf(agent.token)).map(kindOf)).toEqual([
      "select agent_tokens",
      "select agents",
      "select agent_grants",
    ]);
  });
});

/** A statement's verb and table, e.g. `select sessions`; the rate limit's lease is its upsert. */
function kindOf(sql: string): string {
  if (/INSERT INTO rate_limit_buckets/i.test(sql)) return "lease rate_limit_buckets";
  const table = /(?:FROM|INTO|UPDATE)\s+"?(?:public"?\."?)?"?(\w+)"?/i.exec(sql)?.[1] ?? "?";
  return `${sql.trim().split(/\s+/)[0]!.toLowerCase()} ${table}`;
}
