// Notifications (pinned-wave2 §4.1–4.3): the list and its filters and pages, read marks,
// read-all, preferences, the unread count on /v1/me and /v1/overview, and the triggers — each
// notification written in its cause's transaction (and gone when that rolls back), the signal
// path's set-based, muted codes creating none. Owner A and owner B never see each other's.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { applyTestEnv, callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { recordingStatements } from "../../test/helpers/statements";
import { serviceHeaders } from "../../test/helpers/webhook-signing";
import { postDelivery } from "../../test/helpers/webhooks";
import {
  seedGenericWebhook,
  seedAgent,
  seedBusiness,
  seedDataRequest,
  seedIntegration,
  seedOwner,
  type TSeedOwner,
} from "../../test/helpers/seed";
import { approve, createApproval } from "../approvals/approval-service";
import type { TCaller } from "../auth/caller";
import { inTransaction } from "../db/transaction";
import { confirmImport } from "../imports/import-confirm";
import { ingestSignals } from "../ingest/ingest-service";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { ingestSignalsInTx } from "../ingest/ingest-signals";

let api: TTestApi;
type TWorld = TSeedOwner & { businessId: string; integrationId: string };
let a: TWorld;
let b: TWorld;

async function world(): Promise<TWorld> {
  const owner = await seedOwner(api);
  const businessId = (await seedBusiness(api, { name: "Shop", currency: "EUR" }, owner.token)).id;
  const integrationId = await seedIntegration(api.db, { ownerId: owner.ownerId, provider: "payments_a", businessId });
  return { ...owner, businessId, integrationId };
}

function signal(integrationId: string, extra: Partial<TIntegrationSignal> = {}): TIntegrationSignal {
  return {
    integration_id: integrationId,
    external_id: `sig_${randomUUID()}`,
    code: "payout_failed",
    occurred_at: "2026-11-20T10:00:00.000Z",
    ...extra,
  };
}

function callerOf(owner: TSeedOwner): TCaller {
  return {
    ownerId: owner.ownerId,
    actor: { type: "owner", ownerId: owner.ownerId, credential: "static", tokenKey: `test:${owner.ownerId}` },
    requestId: `req_${randomUUID()}`,
    now: new Date(),
  };
}

const list = (owner: TSeedOwner, query = "") => api.call("GET", `/v1/notifications${query}`, { token: owner.token });

async function allNotifications(owner: TSeedOwner, query = "") {
  const response = await list(owner, `?limit=200${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as Array<Record<string, any>>;
}

/** A statement import preview with one good and one bad row (year 0000 is refused). */
async function importWithRejectedRow(owner: TWorld): Promise<string> {
  const day = addDays(todayUtc(), -5);
  const tag = randomUUID().slice(0, 8);
  const file = ["Date,Amount,Currency,Description", `${day},-10.00,EUR,good ${tag}`, `0000-01-01,-12.00,EUR,bad ${tag}`].join(
    "\n",
  );
  const preview = await callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: owner.businessId }, file: { bytes: file } },
    { token: owner.token },
  );
  expect(preview.status, preview.text).toBe(200);
  return preview.body.data.import_id as string;
}

beforeAll(async () => {
  api = await createTestApi();
  a = await world();
  b = await world();
});
afterAll(async () => api?.close());

describe("triggers", () => {
  it("every alert of a signal batch is a notification, written by one set-based statement", async () => {
    const owner = await world();
    const signals = Array.from({ length: 40 }, (_, n) =>
      signal(owner.integrationId, {
        code: n % 3 === 0 ? "account_suspended" : n % 3 === 1 ? "payout_paid" : "campaign_paused",
        ...(n === 1 ? { message: "Payout po_1 of 1,250.00 EUR paid." } : {}),
      }),
    );
    const one = recordingStatements(api.db);
    await ingestSignals(one.db, owner.ownerId, [signal(owner.integrationId, { code: "payout_paid" })]);
    await api.db.notification.deleteMany({ where: { ownerId: owner.ownerId } });
    await api.db.alert.deleteMany({ where: { ownerId: owner.ownerId } });
    const many = recordingStatements(api.db);
    const result = await ingestSignals(many.db, owner.ownerId, signals);
    expect(result.accepted).toBe(40);
    // The same statements for 1 or 40 signals; the notifications are one of them.
    expect(many.names).toEqual(one.names);
    expect(many.names.filter((name) => name.startsWith("Notification."))).toEqual([]);
    const alerts = await api.db.alert.findMany({ where: { ownerId: owner.ownerId } });
    const notifications = await allNotifications(owner);
    expect(notifications).toHaveLength(40);
    const byAlert = new Map(notifications.map((n) => [n.ref.id, n]));
    for (const alert of alerts) {
      const notification = byAlert.get(alert.id)!;
      expect(notification).toMatchObject({
        code: alert.code,
        severity: alert.severity,
        body: alert.message,
        ref: { type: "alert", id: alert.id },
        read_at: null,
        created_at: alert.createdAt.toISOString(),
        delivered: [{ channel: "in_app", at: alert.createdAt.toISOString(), status: "delivered" }],
      });
      expect(notification.title.length).toBeLessThanOrEqual(120);
    }
    expect(byAlert.size).toBe(40);
    expect(notifications.filter((n) => n.severity === "critical")).toHaveLength(14);
    expect(notifications.find((n) => n.body === "Payout po_1 of 1,250.00 EUR paid.")).toMatchObject({
      code: "integration.payout_paid",
      severity: "info",
      title: "A payout was paid to your bank account.",
    });
    // A repeat of the batch (deduped signals) raises nothing new.
    expect((await ingestSignals(api.db, owner.ownerId, signals)).deduped).toBe(40);
    expect(await allNotifications(owner)).toHaveLength(40);
  });

  it("a signal through the signed generic webhook notifies the owner: the unread count shows it", async () => {
    const owner = await world();
    const connected = await seedGenericWebhook(api, { business_id: owner.businessId }, owner.token);
    const raw = JSON.stringify({
      signals: [{ external_id: `gw_${randomUUID()}`, code: "account_suspended", occurred_at: "2026-11-20T10:00:00Z" }],
    });
    const path = `/v1/webhooks/generic/${connected.integration_id}`;
    const delivered = await postDelivery(api, path, raw, serviceHeaders(connected.secret, raw));
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.body.data.signals_accepted).toBe(1);
    expect((await api.call("GET", "/v1/me", { token: owner.token })).body.data.unread_notifications).toBe(1);
    const [notification] = await allNotifications(owner);
    expect(notification).toMatchObject({ code: "integration.account_suspended", severity: "critical", ref: { type: "alert" } });
  });

  it("a signal's notification is written in its transaction: rolled back with it", async () => {
    const owner = await world();
    const externalId = `rollback_${randomUUID()}`;
    await expect(
      inTransaction(api.db, async (tx) => {
        await ingestSignalsInTx(tx, owner.ownerId, [signal(owner.integrationId, { external_id: externalId })]);
        expect(await tx.notification.count({ where: { ownerId: owner.ownerId } })).toBe(1);
        throw new Error("the cause fails after the signal");
      }),
    ).rejects.toThrow("the cause fails");
    expect(await api.db.integrationSignal.count({ where: { externalId } })).toBe(0);
    expect(await api.db.alert.count({ where: { ownerId: owner.ownerId } })).toBe(0);
    expect(await api.db.notification.count({ where: { ownerId: owner.ownerId } })).toBe(0);
  });

  it("an approval that waits for the owner is an approval.pending notification (warning)", async () => {
    const owner = await world();
    const agent = await seedAgent(api, {}, owner.token);
    const approval = await seedDataRequest(api, agent.token);
    const [notification] = await allNotifications(owner);
    expect(notification).toMatchObject({
      code: "approval.pending",
      severity: "warning",
      ref: { type: "approval", id: approval.id },
      read_at: null,
      delivered: [{ channel: "in_app", status: "delivered" }],
    });
    expect(notification!.title).toMatch(/approval/);
    expect(notification!.body).toContain("for the forecast");
  });

  it("an approval.pending notification names what waits in words and its amount in the owner's locale", async () => {
    const owner = await world();
    await api.db.owner.update({ where: { id: owner.ownerId }, data: { locale: "de-DE" } });
    const approval = await createApproval(api.db, callerOf(owner), {
      kind: "write",
      action: "ad_budget_change.create",
      agentId: null,
      reason: "more reach",
      trigger: "over_limit",
      params: {},
      amountMinor: 123456n,
      currency: "EUR",
    });
    const [notification] = await allNotifications(owner);
    expect(notification!.ref).toEqual({ type: "approval", id: approval.id });
    expect(notification!.title).toBe("Waiting for your approval: change an ad budget");
    expect(notification!.body).toContain("Amount: 1.234,56\u00a0€.");
    expect(notification!.body).not.toContain("ad_budget_change");
  });

  it("an approval decided in the Approvals page resolves its notification: read, decided, no longer counted", async () => {
    const owner = await world();
    const other = await world();
    const agent = await seedAgent(api, {}, owner.token);
    const otherAgent = await seedAgent(api, {}, other.token);
    const approved = await seedDataRequest(api, agent.token);
    const rejected = await seedDataRequest(api, agent.token);
    const othersApproval = await seedDataRequest(api, otherAgent.token);
    const unread = async (who: TSeedOwner) =>
      (await api.call("GET", "/v1/me", { token: who.token })).body.data.unread_notifications as number;
    expect(await unread(owner)).toBe(2);
    for (const notification of await allNotifications(owner)) expect(notification.resolution).toBeNull();

    // Another owner cannot decide it, and nothing of theirs moves.
    expectApiError(
      await api.call("POST", `/v1/approvals/${approved.id}/approve`, { token: other.token, body: {} }),
      404,
      "not_found",
    );
    expect(await unread(owner)).toBe(2);

    const decision = await api.call("POST", `/v1/approvals/${approved.id}/approve`, { token: owner.token, body: {} });
    expect(decision.status, decision.text).toBe(200);
    expect(await unread(owner)).toBe(1);
    const byRef = async () => new Map((await allNotifications(owner)).map((n) => [n.ref?.id as string, n]));
    let notifications = await byRef();
    expect(notifications.get(approved.id)).toMatchObject({
      read_at: expect.any(String),
      resolution: { status: "approved", decided_at: decision.body.data.decided_at },
    });
    expect(notifications.get(rejected.id)).toMatchObject({ read_at: null, resolution: null });

    const rejection = await api.call("POST", `/v1/approvals/${rejected.id}/reject`, { token: owner.token, body: {} });
    expect(rejection.status, rejection.text).toBe(200);
    expect(await unread(owner)).toBe(0);
    notifications = await byRef();
    expect(notifications.get(rejected.id)!.resolution).toMatchObject({ status: "rejected" });
    // Marked unread again, it still says it was decided (and counts again: the owner asked for it).
    const patched = await api.call("PATCH", `/v1/notifications/${notifications.get(rejected.id)!.id}`, {
      token: owner.token,
      body: { read: false },
    });
    expect(patched.body.data).toMatchObject({ read_at: null, resolution: { status: "rejected" } });

    // The other owner's notification is untouched.
    const [theirs] = await allNotifications(other);
    expect(theirs).toMatchObject({ ref: { id: othersApproval.id }, read_at: null, resolution: null });
    expect(await unread(other)).toBe(1);
  });

  it("a decision that rolls back leaves its notification unread and undecided", async () => {
    const owner = await world();
    const agent = await seedAgent(api, {}, owner.token);
    const approval = await seedDataRequest(api, agent.token);
    await expect(
      inTransaction(api.db, async (tx) => {
        await approve(tx, callerOf(owner), approval.id, {});
        expect(await tx.notification.count({ where: { ownerId: owner.ownerId, readAt: null } })).toBe(0);
        throw new Error("the decision fails after the claim");
      }),
    ).rejects.toThrow("the decision fails");
    const [notification] = await allNotifications(owner);
    expect(notification).toMatchObject({ ref: { id: approval.id }, read_at: null, resolution: null });
  });

  it("an auto-approved approval raises none; a pending one rolled back leaves none", async () => {
    const owner = await world();
    const caller = callerOf(owner);
    const base = { kind: "request" as const, action: "provide_data", agentId: null, reason: "r", trigger: "request" as const };
    await createApproval(api.db, caller, { ...base, params: {}, status: "auto_approved" });
    expect(await api.db.notification.count({ where: { ownerId: owner.ownerId } })).toBe(0);
    let approvalId = "";
    await expect(
      inTransaction(api.db, async (tx) => {
        approvalId = (await createApproval(tx, caller, { ...base, params: {} })).id;
        expect(await tx.notification.count({ where: { ownerId: owner.ownerId, refId: approvalId } })).toBe(1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await api.db.approval.count({ where: { id: approvalId } })).toBe(0);
    expect(await api.db.notification.count({ where: { ownerId: owner.ownerId } })).toBe(0);
  });

  it("an import confirmed with rejected rows is an import.rows_rejected notification (info)", async () => {
    const owner = await world();
    const importId = await importWithRejectedRow(owner);
    const confirmed = await api.call("POST", `/v1/imports/${importId}/confirm`, { body: {}, token: owner.token });
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.data.rejected).toHaveLength(1);
    const notifications = await allNotifications(owner);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      code: "import.rows_rejected",
      severity: "info",
      title: "Import confirmed: 1 row was rejected",
      ref: { type: "import", id: importId },
    });
  });

  it("an import without rejected rows raises none; a confirm rolled back leaves none", async () => {
    const owner = await world();
    const clean = await callMultipart(
      api.handler,
      "/v1/imports",
      {
        fields: { business_id: owner.businessId },
        file: { bytes: `Date,Amount,Currency,Description\n${addDays(todayUtc(), -3)},-1.00,EUR,clean ${randomUUID()}\n` },
      },
      { token: owner.token },
    );
    const cleanConfirm = await api.call("POST", `/v1/imports/${clean.body.data.import_id}/confirm`, {
      body: {},
      token: owner.token,
    });
    expect(cleanConfirm.status, cleanConfirm.text).toBe(201);
    expect(await api.db.notification.count({ where: { ownerId: owner.ownerId } })).toBe(0);

    const importId = await importWithRejectedRow(owner);
    await expect(
      inTransaction(api.db, async (tx) => {
        await confirmImport(tx, callerOf(owner), importId, {});
        expect(await tx.notification.count({ where: { ownerId: owner.ownerId, refId: importId } })).toBe(1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await api.db.import.findUniqueOrThrow({ where: { id: importId } })).status).toBe("previewed");
    expect(await api.db.notification.count({ where: { ownerId: owner.ownerId } })).toBe(0);
  });

  it("a muted code (exact or prefix*) creates no notification; its cause is still written", async () => {
    const owner = await world();
    const muted = await api.call("PATCH", "/v1/me/notification-preferences", {
      token: owner.token,
      body: { muted_codes: ["integration.payout_*", "approval.pending"] },
    });
    expect(muted.status, muted.text).toBe(200);
    await ingestSignals(api.db, owner.ownerId, [
      signal(owner.integrationId, { code: "payout_failed" }),
      signal(owner.integrationId, { code: "payout_paid" }),
      signal(owner.integrationId, { code: "account_suspended" }),
    ]);
    expect(await api.db.alert.count({ where: { ownerId: owner.ownerId } })).toBe(3);
    const agent = await seedAgent(api, {}, owner.token);
    await seedDataRequest(api, agent.token);
    expect((await allNotifications(owner)).map((n) => n.code)).toEqual(["integration.account_suspended"]);
    // Another owner's mute does not apply to this one.
    await ingestSignals(api.db, a.ownerId, [signal(a.integrationId, { code: "payout_failed" })]);
    expect((await allNotifications(a, "&code=integration.payout_failed")).length).toBeGreaterThan(0);
  });
});

describe("GET /v1/notifications", () => {
  let owner: TWorld;
  beforeAll(async () => {
    owner = await world();
    // Five batches a minute apart: created_at orders them.
    for (let n = 0; n < 5; n++) {
      await ingestSignals(
        api.db,
        owner.ownerId,
        [signal(owner.integrationId, { code: n % 2 ? "payout_paid" : "dispute_opened" })],
        { now: new Date(Date.UTC(2026, 10, 20 + n, 9, 0)) },
      );
    }
  });

  it("pages newest first with a cursor; the pages cover the list once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(owner, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status, response.text).toBe(200);
      seen.push(...response.body.data.map((n: { created_at: string }) => n.created_at));
      expect(response.body.page.has_more).toBe(response.body.page.next_cursor !== null);
      cursor = response.body.page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([24, 23, 22, 21, 20].map((d) => new Date(Date.UTC(2026, 10, d, 9, 0)).toISOString()));
  });

  it("filters by severity, code (exact or prefix*), unread and from/to", async () => {
    expect(await allNotifications(owner, "&severity=critical")).toHaveLength(3);
    expect(await allNotifications(owner, "&code=integration.payout_paid")).toHaveLength(2);
    expect(await allNotifications(owner, "&code=integration.*")).toHaveLength(5);
    expect(await allNotifications(owner, "&code=approval.*")).toHaveLength(0);
    expect(await allNotifications(owner, "&from=2026-11-21&to=2026-11-22")).toHaveLength(2);
    expect(await allNotifications(owner, "&from=2026-11-23T09:00:00.000Z")).toHaveLength(2);
    const [newest] = await allNotifications(owner);
    await api.call("PATCH", `/v1/notifications/${newest!.id}`, { token: owner.token, body: { read: true } });
    expect(await allNotifications(owner, "&unread=true")).toHaveLength(4);
    expect((await allNotifications(owner, "&unread=false")).map((n) => n.id)).toEqual([newest!.id]);
  });

  it("refuses bad filters with 400 validation_error", async () => {
    for (const query of [
      "?severity=fatal",
      "?limit=0",
      "?limit=201",
      "?cursor=nonsense",
      "?from=yesterday",
      "?unread=maybe",
      "?code=a%00b",
    ]) {
      expectApiError(await list(owner, query), 400, "validation_error", { what: query });
    }
  });
});

describe("PATCH /v1/notifications/{id} and POST /v1/notifications/read-all", () => {
  it("marks read (keeping the first read_at), then unread; each audited", async () => {
    const owner = await world();
    await ingestSignals(api.db, owner.ownerId, [signal(owner.integrationId)]);
    const [notification] = await allNotifications(owner);
    const read = await api.call("PATCH", `/v1/notifications/${notification!.id}`, { token: owner.token, body: { read: true } });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ id: notification!.id, read_at: expect.any(String) });
    const again = await api.call("PATCH", `/v1/notifications/${notification!.id}`, { token: owner.token, body: { read: true } });
    expect(again.body.data.read_at).toBe(read.body.data.read_at);
    const unread = await api.call("PATCH", `/v1/notifications/${notification!.id}`, {
      token: owner.token,
      body: { read: false },
    });
    expect(unread.status, unread.text).toBe(200);
    expect(unread.body.data.read_at).toBeNull();
    const actions = await api.db.auditEntry.findMany({
      where: { ownerId: owner.ownerId, targetId: notification!.id },
      orderBy: { createdAt: "asc" },
    });
    expect(actions.map((e) => e.action)).toEqual(["notification.read", "notification.read", "notification.unread"]);
  });

  it("read-all marks the unread ones up to `before`, and a repeat updates none", async () => {
    const owner = await world();
    for (const day of [1, 2, 3]) {
      await ingestSignals(api.db, owner.ownerId, [signal(owner.integrationId)], { now: new Date(Date.UTC(2026, 10, day)) });
    }
    const older = await api.call("POST", "/v1/notifications/read-all", {
      token: owner.token,
      body: { before: "2026-11-02T00:00:00.000Z" },
    });
    expect(older.status, older.text).toBe(200);
    expect(older.body).toMatchObject({ data: { updated: 2 } });
    expect((await api.call("GET", "/v1/me", { token: owner.token })).body.data.unread_notifications).toBe(1);
    const rest = await api.call("POST", "/v1/notifications/read-all", { token: owner.token, body: {} });
    expect(rest.body.data.updated).toBe(1);
    const repeat = await api.call("POST", "/v1/notifications/read-all", { token: owner.token, body: {} });
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.data.updated).toBe(0);
    const audited = await api.db.auditEntry.findMany({
      where: { ownerId: owner.ownerId, action: "notifications.read_all" },
      orderBy: { createdAt: "asc" },
    });
    expect(audited.map((e) => (e.details as { updated: number }).updated)).toEqual([2, 1, 0]);
  });

  it("needs an Idempotency-Key, and a repeated key replays the stored answer", async () => {
    const owner = await world();
    await ingestSignals(api.db, owner.ownerId, [signal(owner.integrationId)]);
    for (const [method, path, body] of [
      ["POST", "/v1/notifications/read-all", {}],
      ["PATCH", "/v1/me/notification-preferences", { muted_codes: [] }],
    ] as const) {
      const response = await api.call(method, path, { token: owner.token, body, idempotencyKey: null });
      expectApiError(response, 400, "missing_idempotency_key", { what: path });
    }
    const key = `read-all-${randomUUID()}`;
    const first = await api.call("POST", "/v1/notifications/read-all", { token: owner.token, body: {}, idempotencyKey: key });
    const replay = await api.call("POST", "/v1/notifications/read-all", { token: owner.token, body: {}, idempotencyKey: key });
    expect(first.body.data.updated).toBe(1);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.updated).toBe(1);
  });

  it("refuses bad bodies and ids with 400 validation_error, writing nothing", async () => {
    const owner = await world();
    await ingestSignals(api.db, owner.ownerId, [signal(owner.integrationId)]);
    const [notification] = await allNotifications(owner);
    const path = `/v1/notifications/${notification!.id}`;
    for (const body of [{}, { read: "yes" }, { read: null }]) {
      expectApiError(await api.call("PATCH", path, { token: owner.token, body }), 400, "validation_error");
    }
    expectApiError(
      await api.call("PATCH", "/v1/notifications/abc", { token: owner.token, body: { read: true } }),
      400,
      "validation_error",
    );
    expectApiError(
      await api.call("POST", "/v1/notifications/read-all", { token: owner.token, body: { before: "yesterday" } }),
      400,
      "validation_error",
    );
    expectApiError(
      await api.call("PATCH", `/v1/notifications/${randomUUID()}`, { token: owner.token, body: { read: true } }),
      404,
      "not_found",
    );
    expect((await allNotifications(owner))[0]!.read_at).toBeNull();
  });
});

describe("preferences", () => {
  it("answers the defaults, then merges a PATCH deeply", async () => {
    const owner = await seedOwner(api);
    const defaults = await api.call("GET", "/v1/me/notification-preferences", { token: owner.token });
    expect(defaults.status, defaults.text).toBe(200);
    expect(defaults.body.data).toEqual({
      channels: {
        in_app: { enabled: true },
        webhook: { enabled: true, min_severity: "info" },
        email: { enabled: false, min_severity: "critical" },
      },
      muted_codes: [],
      webhook: null,
    });
    const first = await api.call("PATCH", "/v1/me/notification-preferences", {
      token: owner.token,
      body: { channels: { webhook: { min_severity: "warning" } } },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.channels.webhook).toEqual({ enabled: true, min_severity: "warning" });
    const second = await api.call("PATCH", "/v1/me/notification-preferences", {
      token: owner.token,
      body: { channels: { webhook: { enabled: false }, in_app: { enabled: true } }, muted_codes: ["plan.*", "plan.*"] },
    });
    expect(second.body.data).toEqual({
      channels: {
        in_app: { enabled: true },
        webhook: { enabled: false, min_severity: "warning" },
        email: { enabled: false, min_severity: "critical" },
      },
      muted_codes: ["plan.*"],
      webhook: null,
    });
    expect((await api.call("GET", "/v1/me/notification-preferences", { token: owner.token })).body.data).toEqual(
      second.body.data,
    );
    const audited = await api.db.auditEntry.count({
      where: { ownerId: owner.ownerId, action: "notification_preferences.updated" },
    });
    expect(audited).toBe(2);
  });

  it("refuses in_app off, unknown severities and keys, too many codes, and email without SMTP_URL (400)", async () => {
    const owner = await seedOwner(api);
    const bodies: Array<[unknown, string]> = [
      [{ channels: { in_app: { enabled: false } } }, "channels.in_app.enabled"],
      [{ channels: { webhook: { min_severity: "fatal" } } }, "channels.webhook.min_severity"],
      [{ channels: { email: { min_severity: "debug" } } }, "channels.email.min_severity"],
      [{ channels: { sms: { enabled: true } } }, "channels"],
      [{ webhook: { url: "https://example.com" } }, ""],
      [{ muted_codes: Array.from({ length: 101 }, (_, n) => `code.${n}`) }, "muted_codes"],
      [{ muted_codes: ["has space"] }, "muted_codes.0"],
      [{ channels: { email: { enabled: true } } }, "channels.email.enabled"],
    ];
    for (const [body, issue] of bodies) {
      const response = await api.call("PATCH", "/v1/me/notification-preferences", { token: owner.token, body });
      expectApiError(response, 400, "validation_error", { what: JSON.stringify(body), ...(issue ? { issue } : {}) });
    }
    expect(await api.db.notificationPreference.count({ where: { ownerId: owner.ownerId } })).toBe(0);
    expect(await api.db.auditEntry.count({ where: { ownerId: owner.ownerId, action: "notification_preferences.updated" } })).toBe(
      0,
    );
  });

  it("turns email on when the server has SMTP_URL", async () => {
    const owner = await seedOwner(api);
    applyTestEnv({ SMTP_URL: "smtp://127.0.0.1:2525" });
    try {
      const response = await api.call("PATCH", "/v1/me/notification-preferences", {
        token: owner.token,
        body: { channels: { email: { enabled: true, min_severity: "warning" } } },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.channels.email).toEqual({ enabled: true, min_severity: "warning" });
    } finally {
      applyTestEnv({ SMTP_URL: undefined });
    }
  });
});

describe("unread count on /v1/me and /v1/overview", () => {
  it("counts the unread notifications, and only the owner's", async () => {
    const owner = await world();
    await ingestSignals(api.db, owner.ownerId, [signal(owner.integrationId), signal(owner.integrationId)]);
    const me = await api.call("GET", "/v1/me", { token: owner.token });
    expect(me.body.data.unread_notifications).toBe(2);
    const overview = await api.call("GET", "/v1/overview", { token: owner.token });
    expect(overview.status, overview.text).toBe(200);
    expect(overview.body.data.unread_notifications).toBe(2);
    const [first] = await allNotifications(owner);
    await api.call("PATCH", `/v1/notifications/${first!.id}`, { token: owner.token, body: { read: true } });
    expect((await api.call("GET", "/v1/me", { token: owner.token })).body.data.unread_notifications).toBe(1);
    expect((await api.call("GET", "/v1/overview", { token: owner.token })).body.data.unread_notifications).toBe(1);
    const fresh = await seedOwner(api);
    expect((await api.call("GET", "/v1/me", { token: fresh.token })).body.data.unread_notifications).toBe(0);
  });
});

describe("access", () => {
  it("owner B gets 404 for A's notification and never sees A's in lists, counts or read-all", async () => {
    await ingestSignals(api.db, a.ownerId, [signal(a.integrationId, { code: "account_suspended" })]);
    const [theirs] = await allNotifications(a);
    const response = await api.call("PATCH", `/v1/notifications/${theirs!.id}`, { token: b.token, body: { read: true } });
    expectApiError(response, 404, "not_found");
    expect((await allNotifications(b)).map((n) => n.id)).not.toContain(theirs!.id);
    const readAll = await api.call("POST", "/v1/notifications/read-all", { token: b.token, body: {} });
    expect(readAll.status, readAll.text).toBe(200);
    const after = await api.db.notification.findUniqueOrThrow({ where: { id: theirs!.id } });
    expect(after.readAt).toBeNull();
    expect((await api.call("GET", "/v1/me", { token: b.token })).body.data.unread_notifications).toBe(0);
  });

  it("agents are refused every operation with 403 scope_denied, audited", async () => {
    const agent = await seedAgent(api, {}, a.token);
    const [one] = await allNotifications(a);
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/v1/notifications"],
      ["PATCH", `/v1/notifications/${one!.id}`, { read: true, reason: "tidy up" }],
      ["POST", "/v1/notifications/read-all", { reason: "tidy up" }],
      ["GET", "/v1/me/notification-preferences"],
      ["PATCH", "/v1/me/notification-preferences", { muted_codes: [], reason: "tidy up" }],
    ];
    for (const [method, path, body] of calls) {
      expectApiError(await api.call(method, path, { token: agent.token, body }), 403, "scope_denied", {
        what: `${method} ${path}`,
      });
    }
    expect(await api.db.auditEntry.count({ where: { ownerId: a.ownerId, action: "access.denied", actorId: agent.id } })).toBe(5);
    expect((await api.db.notification.findUniqueOrThrow({ where: { id: one!.id } })).readAt).toBeNull();
  });

  it("the five operations are in /v1/openapi.json", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json")).body;
    expect(Object.keys(doc.paths["/v1/notifications"])).toContain("get");
    expect(Object.keys(doc.paths["/v1/notifications/{id}"])).toContain("patch");
    expect(Object.keys(doc.paths["/v1/notifications/read-all"])).toContain("post");
    expect(Object.keys(doc.paths["/v1/me/notification-preferences"]).sort()).toEqual(["get", "patch"]);
    const params = doc.paths["/v1/notifications"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(["unread", "severity", "code", "from", "to", "limit", "cursor"]));
  });
});
