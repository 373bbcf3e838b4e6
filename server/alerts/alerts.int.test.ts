// Alerts for the panel: the newest first, in the Alert shape, only the owner's own, through the
// service and through the panel-only procedure alerts.recent (which is not part of /v1).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedIntegration, seedOwner } from "../../test/helpers/seed";
import type { TActor } from "../auth/actor";
import { createRequestContext } from "../auth/request-context";
import { toAppError } from "../errors/to-app-error";
import { ingestSignals } from "../ingest/ingest-service";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { appRouter } from "../router";
import { createContext } from "../trpc/context";
import { createCallerFactory } from "../trpc/init";
import { findRecentAlerts } from "./alert-service";

let api: TTestApi;
let a: { ownerId: string; businessId: string; integrationId: string };
let b: { ownerId: string; businessId: string; integrationId: string };

const createCaller = createCallerFactory(appRouter);
const ownerActor = (ownerId: string): TActor => ({ type: "owner", ownerId, credential: "static", tokenKey: `test:${ownerId}` });
const callerFor = (actor: TActor) =>
  createCaller(createContext(createRequestContext(new Headers(), { requestId: "req_alerts_test" }), { db: api.db, actor }));

async function setUpOwner(email: string) {
  const { ownerId, token } = await seedOwner(api, email);
  const businessId = (await seedBusiness(api, { name: email }, token)).id;
  const integrationId = await seedIntegration(api.db, { ownerId, provider: "payments_a", name: "Payments A", businessId });
  return { ownerId, businessId, integrationId };
}

function signal(integrationId: string, externalId: string, extra: Partial<TIntegrationSignal> = {}): TIntegrationSignal {
  return {
    integration_id: integrationId,
    external_id: externalId,
    code: "payout_failed",
    occurred_at: "2026-11-20T10:00:00.000Z",
    ...extra,
  };
}

beforeAll(async () => {
  api = await createTestApi();
  a = await setUpOwner("alerts-a@example.test");
  b = await setUpOwner("alerts-b@example.test");
  // A's alerts, each batch a moment later than the one before (created_at orders them).
  for (let n = 1; n <= 12; n++) {
    await ingestSignals(
      api.db,
      a.ownerId,
      [signal(a.integrationId, `a_${n}`, { code: n % 2 ? "payout_failed" : "dispute_opened" })],
      {
        now: new Date(Date.UTC(2026, 10, 20, 10, n)),
      },
    );
  }
  await ingestSignals(
    api.db,
    a.ownerId,
    [
      signal(a.integrationId, "a_amount", {
        code: "payout_paid",
        amount_minor: 125_000,
        currency: "EUR",
        message: "Payout po_1 paid.",
      }),
    ],
    { now: new Date(Date.UTC(2026, 10, 20, 11, 0)) },
  );
  await ingestSignals(api.db, b.ownerId, [signal(b.integrationId, "b_1", { code: "account_suspended" })], {
    now: new Date(Date.UTC(2026, 10, 20, 12, 0)),
  });
});
afterAll(async () => api?.close());

describe("findRecentAlerts", () => {
  it("answers the owner's newest alerts in the Alert shape, 10 by default", async () => {
    const alerts = await findRecentAlerts(api.db, a.ownerId);
    expect(alerts).toHaveLength(10);
    const newest = alerts[0]!;
    const stored = await api.db.alert.findFirstOrThrow({ where: { ownerId: a.ownerId, code: "integration.payout_paid" } });
    expect(newest).toEqual({
      id: stored.id,
      code: "integration.payout_paid",
      severity: "info",
      message: "Payout po_1 paid.",
      business_id: a.businessId,
      integration_id: a.integrationId,
      amount_minor: 125_000,
      currency: "EUR",
      ref: { type: "audit_entry", id: stored.refId },
      occurred_at: "2026-11-20T10:00:00.000Z",
      created_at: "2026-11-20T11:00:00.000Z",
    });
    const audit = await api.db.auditEntry.findUniqueOrThrow({ where: { id: stored.refId } });
    expect(audit.action).toBe("signal.payout_paid");
    expect(alerts[1]).toMatchObject({
      code: "integration.dispute_opened",
      severity: "critical",
      message: "A customer opened a dispute on a payment.",
      amount_minor: null,
      currency: null,
      created_at: "2026-11-20T10:12:00.000Z",
    });
    const times = alerts.map((alert) => alert.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("honours limit within 1 to 50", async () => {
    expect(await findRecentAlerts(api.db, a.ownerId, { limit: 3 })).toHaveLength(3);
    expect(await findRecentAlerts(api.db, a.ownerId, { limit: 50 })).toHaveLength(13);
    expect(await findRecentAlerts(api.db, a.ownerId, { limit: 500 })).toHaveLength(13);
    expect(await findRecentAlerts(api.db, a.ownerId, { limit: 0 })).toHaveLength(1);
  });

  it("never shows another owner's alerts", async () => {
    const mine = await findRecentAlerts(api.db, b.ownerId, { limit: 50 });
    expect(mine.map((alert) => alert.code)).toEqual(["integration.account_suspended"]);
    const aIds = new Set((await api.db.alert.findMany({ where: { ownerId: a.ownerId }, select: { id: true } })).map((r) => r.id));
    expect(mine.some((alert) => aIds.has(alert.id))).toBe(false);
    expect(JSON.stringify(mine)).not.toContain(a.integrationId);
    expect(JSON.stringify(mine)).not.toContain(a.businessId);
  });
});

describe("alerts.recent (panel only)", () => {
  it("answers { data } for the owner, newest first, and only the owner's own", async () => {
    const forA = await callerFor(ownerActor(a.ownerId)).alerts.recent({ limit: 5 });
    expect(forA.data).toHaveLength(5);
    expect(forA.data[0]!.code).toBe("integration.payout_paid");
    const forB = await callerFor(ownerActor(b.ownerId)).alerts.recent({});
    expect(forB.data.map((alert) => alert.code)).toEqual(["integration.account_suspended"]);
    expect(JSON.stringify(forB)).not.toContain(a.integrationId);
  });

  it("validates limit (1 to 50) and refuses a caller that is not an owner", async () => {
    const owner = callerFor(ownerActor(a.ownerId));
    for (const limit of [0, 51, 2.5]) {
      const error = toAppError(await owner.alerts.recent({ limit }).catch((e: unknown) => e));
      expect(error.code, String(limit)).toBe("validation_error");
    }
    const anonymous = toAppError(
      await callerFor({ type: "public" })
        .alerts.recent({})
        .catch((e: unknown) => e),
    );
    expect(anonymous.code).toBe("unauthenticated");
    const agent = toAppError(
      await callerFor({ type: "agent", ownerId: a.ownerId, agentId: randomUUID(), tokenKey: "agent", grants: [] })
        .alerts.recent({})
        .catch((e: unknown) => e),
    );
    expect(agent.code).toBe("scope_denied");
  });

  it("is not part of /v1: no route, no OpenAPI operation", async () => {
    expect(
      api.handler.routes.routes.some(
        (route) => route.target.kind === "procedure" && route.target.procedurePath.startsWith("alerts."),
      ),
    ).toBe(false);
    const missing = await api.call("GET", "/v1/alerts");
    expectApiError(missing, 404, "not_found");
    const doc = await api.call("GET", "/v1/openapi.json", { token: null });
    expect(Object.keys(doc.body.paths).some((path) => path.includes("alert"))).toBe(false);
    expect(doc.text).not.toContain("alerts.recent");
  });
});
