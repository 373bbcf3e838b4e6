// Idempotency under a dropped database connection (issue 11, item 2): a write and its
// idempotency record commit together, so a retry with the same Idempotency-Key replays a
// committed write and re-runs one that never committed. On PostgreSQL the connection is really
// cut (pg_terminate_backend from an admin connection); PGlite has one in-process connection
// that cannot be cut, so there the same moments fail with a thrown error instead.
import { createHash } from "node:crypto";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerOf } from "../auth/caller";
import { createBusiness } from "../businesses/business-service";
import { ZBusiness } from "../businesses/business.schema";
import { createProject } from "../projects/project-service";
import { mergeRouters, ownerProcedure, router } from "../trpc/init";
import { callApi, createTestApi, type TTestApi } from "../../test/helpers/api";
import { createFixtureRouter } from "../../test/helpers/fixture-router";
import { adminQuery } from "../../test/helpers/postgres";
import { expectApiError } from "../../test/helpers/api-error";
import { requestHash } from "./idempotency";
import { createRestHandler, type TRestHandler } from "./rest-handler";

let api: TTestApi;
let handler: TRestHandler;
/** What happens at the test seams of the next request (once). */
let afterCommit: (() => Promise<void>) | undefined;
let midWrite: (() => Promise<void>) | undefined;

/** A write of two statements: the business, then (after the mid-write seam) a project in it. */
const cutWrite = ownerProcedure
  .meta({ openapi: { method: "POST", path: "/v1/test/two-step-write" }, successStatus: 201 })
  .input(z.object({ name: z.string() }))
  .output(z.object({ data: ZBusiness }))
  .mutation(async ({ ctx, input }) => {
    const caller = callerOf(ctx);
    const business = await createBusiness(ctx.db, caller, { name: input.name, currency: "EUR" });
    const seam = midWrite;
    midWrite = undefined;
    await seam?.();
    await createProject(ctx.db, caller, business.id, { name: `${input.name} project` });
    return { data: business };
  });

beforeAll(async () => {
  api = await createTestApi();
  const testRouter = mergeRouters(createFixtureRouter(), router({ cutWrite }));
  handler = createRestHandler({
    router: testRouter,
    getDb: async () => api.db,
    afterCommit: async () => {
      const seam = afterCommit;
      afterCommit = undefined;
      await seam?.();
    },
  });
});
afterAll(async () => api?.close());

const onPostgres = () => api.database.engine === "postgres";

/** Cuts every connection of the app to its database, as an outage or a failover does. */
async function dropConnections(): Promise<void> {
  if (!onPostgres()) throw new Error("connection lost (simulated: PGlite has no connection to cut)");
  const name = new URL((api.database.target as { url: string }).url).pathname.slice(1);
  await adminQuery(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
  );
}

const post = (path: string, body: unknown, key: string) => callApi(handler, "POST", path, { body, idempotencyKey: key });

describe("a dropped connection and a retry with the same Idempotency-Key", () => {
  it("replays a write that committed before the connection dropped, writing it once", async () => {
    afterCommit = async () => {
      await dropConnections();
      // The answer never reaches the client.
      throw new Error("connection lost before the answer");
    };
    const first = await post("/v1/businesses", { name: "Cut after commit", currency: "EUR" }, "drop-after-1");
    expect(first.status).toBe(500);

    const retry = await post("/v1/businesses", { name: "Cut after commit", currency: "EUR" }, "drop-after-1");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await api.db.business.count({ where: { name: "Cut after commit" } })).toBe(1);
    expect(retry.body.data.id).toBe((await api.db.business.findFirstOrThrow({ where: { name: "Cut after commit" } })).id);
  });

  it("re-runs a write whose connection dropped before it committed, writing it once", async () => {
    midWrite = dropConnections;
    const first = await post("/v1/test/two-step-write", { name: "Cut mid write" }, "drop-mid-1");
    expectApiError(first, 500, "internal_error");

    const retry = await post("/v1/test/two-step-write", { name: "Cut mid write" }, "drop-mid-1");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await api.db.business.count({ where: { name: "Cut mid write" } })).toBe(1);
    expect(await api.db.project.count({ where: { name: "Cut mid write project" } })).toBe(1);

    const replay = await post("/v1/test/two-step-write", { name: "Cut mid write" }, "drop-mid-1");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.id).toBe(retry.body.data.id);
  });
});

describe("the stored fingerprint of a request body", () => {
  it("is keyed, so a body carrying a secret cannot be confirmed from the database by a guess", async () => {
    const body = { name: "Keyed fingerprint", currency: "EUR" };
    const first = await post("/v1/businesses", body, "keyed-hash-1");
    expect(first.status).toBe(201);
    const record = await api.db.idempotencyRecord.findFirstOrThrow({ where: { key: "keyed-hash-1" } });
    const plain = createHash("sha256")
      .update(JSON.stringify({ currency: "EUR", name: "Keyed fingerprint" }))
      .digest("hex");
    expect(record.requestHash).not.toBe(plain);
    expect(record.requestHash).toBe(await requestHash(body));

    const replay = await post("/v1/businesses", body, "keyed-hash-1");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expectApiError(await post("/v1/businesses", { ...body, name: "Another" }, "keyed-hash-1"), 409, "idempotency_conflict");
  });

  it("still replays a record stored with the unkeyed digest of an earlier version", async () => {
    const body = { name: "Unkeyed fingerprint", currency: "EUR" };
    const first = await post("/v1/businesses", body, "unkeyed-hash-1");
    expect(first.status).toBe(201);
    const plain = createHash("sha256")
      .update(JSON.stringify({ currency: "EUR", name: "Unkeyed fingerprint" }))
      .digest("hex");
    await api.db.idempotencyRecord.updateMany({ where: { key: "unkeyed-hash-1" }, data: { requestHash: plain } });

    const replay = await post("/v1/businesses", body, "unkeyed-hash-1");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.id).toBe(first.body.data.id);
  });
});
