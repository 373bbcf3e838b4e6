// The outbound notification webhook and email (pinned-wave2 §4.3–4.4): PUT /v1/me/notification-
// webhook and its URL rules, the secret shown once and kept encrypted, the outbox written with
// each notification, and the delivery job against a real local HTTP receiver that checks the
// signature with its own HMAC; the retry schedule on an injected clock; email through a real SMTP
// sink; removal and channel switches dropping attempts; a dead receiver never slowing the write;
// pending deliveries resumed after a restart. Owner A and owner B never see each other's.
import { createHmac, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { startSmtpSink, type TSmtpSink } from "../../test/helpers/owners";
import { seedBusiness, seedGenericWebhook, seedIntegration, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import { serviceHeaders } from "../../test/helpers/webhook-signing";
import { postDelivery } from "../../test/helpers/webhooks";
import { ingestSignals } from "../ingest/ingest-service";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { notificationDeliveryJob } from "../jobs/notification-delivery";
import { startScheduledJobs } from "../jobs/registry";
import { deliverDueNotifications, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./delivery-service";

type TReceived = { headers: IncomingHttpHeaders; body: string; at: number };

/** A real HTTP receiver on 127.0.0.1 (allowed by OUTBOUND_ALLOW_HOSTS): keeps what it gets, answers `status`. */
async function startReceiver() {
  const received: TReceived[] = [];
  const sockets = new Set<Socket>();
  let respond: (response: ServerResponse) => void = (response) => response.writeHead(204).end();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      respond(response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/finance?tag=1`,
    received,
    answer(status: number | "hang") {
      respond = status === "hang" ? () => undefined : (response) => response.writeHead(status).end();
    },
    /** Cuts every open connection (a receiver that died mid-request). */
    dropConnections: () => sockets.forEach((socket) => socket.destroy()),
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let api: TTestApi;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sink: TSmtpSink;

type TWorld = TSeedOwner & { businessId: string; integrationId: string };

async function world(): Promise<TWorld> {
  const owner = await seedOwner(api);
  const businessId = (await seedBusiness(api, { name: "Shop", currency: "EUR" }, owner.token)).id;
  const integrationId = await seedIntegration(api.db, { ownerId: owner.ownerId, provider: "payments_a", businessId });
  return { ...owner, businessId, integrationId };
}

function signal(owner: TWorld, extra: Partial<TIntegrationSignal> = {}): TIntegrationSignal {
  return {
    integration_id: owner.integrationId,
    external_id: `sig_${randomUUID()}`,
    code: "payout_failed", // critical
    occurred_at: "2026-11-20T10:00:00.000Z",
    ...extra,
  };
}

const putWebhook = (owner: TSeedOwner, body: Record<string, unknown>) =>
  api.call("PUT", "/v1/me/notification-webhook", { token: owner.token, body });

async function setWebhook(owner: TSeedOwner, url = receiver.url): Promise<string> {
  const response = await putWebhook(owner, { url });
  expect(response.status, response.text).toBe(200);
  return response.body.data.secret as string;
}

const deliveries = (owner: TSeedOwner) =>
  api.db.notificationDelivery.findMany({ where: { ownerId: owner.ownerId }, orderBy: { createdAt: "asc" } });

async function notificationsOf(owner: TSeedOwner) {
  const response = await api.call("GET", "/v1/notifications?limit=100", { token: owner.token });
  expect(response.status, response.text).toBe(200);
  return response.body.data as Array<Record<string, any>>;
}

/** The receivers' own check, written without the service's code: HMAC-SHA256 over "<timestamp>.<raw body>". */
function expectSignedBy(secret: string, delivery: TReceived, now: Date) {
  const timestamp = delivery.headers["x-service-timestamp"] as string;
  expect(timestamp).toBe(String(Math.floor(now.getTime() / 1000)));
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest("hex")}`;
  expect(delivery.headers["x-service-signature"]).toBe(expected);
}

beforeAll(async () => {
  receiver = await startReceiver();
  sink = await startSmtpSink();
  api = await createTestApi({ env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SMTP_URL: sink.url } });
});
afterAll(async () => {
  await receiver?.close();
  await sink?.close();
  applyTestEnv({ OUTBOUND_ALLOW_HOSTS: undefined, SMTP_URL: undefined });
  await api?.close();
});

describe("PUT /v1/me/notification-webhook", () => {
  it.each([
    ["not a url", "not_absolute"],
    [`https://example.com/${"a".repeat(2048)}`.slice(0, 2049), "not_absolute"],
    ["/relative/hook", "not_absolute"],
    ["http://example.com/hook", "scheme"],
    ["ftp://example.com/hook", "scheme"],
    ["https://user:secret@example.com/hook", "credentials"],
    ["https://10.0.0.7/hook", "address"],
    ["https://169.254.169.254/latest/meta-data", "address"],
    ["https://100.100.100.200/", "address"],
    ["https://[::1]/hook", "address"],
    ["https://[fd00:ec2::254]/", "address"],
    ["https://[::ffff:10.0.0.1]/hook", "address"],
    ["https://localhost/hook", "address"],
  ])("refuses %.60s (rule %s) and writes nothing", async (url, rule) => {
    const owner = await seedOwner(api);
    const response = await putWebhook(owner, { url });
    expectApiError(response, 422, "webhook_url_invalid");
    expect(response.body.error.details).toEqual({ rule });
    expect(await api.db.notificationWebhook.count({ where: { ownerId: owner.ownerId } })).toBe(0);
    expect(await api.db.auditEntry.count({ where: { ownerId: owner.ownerId, action: "notification_webhook.updated" } })).toBe(0);
  });

  it("answers 400 for a body that is not the pinned shape", async () => {
    const owner = await seedOwner(api);
    expectApiError(await putWebhook(owner, { url: receiver.url, secret: "mine" }), 400, "validation_error");
    expectApiError(await putWebhook(owner, {}), 400, "validation_error");
  });

  it("shows the secret once, keeps it encrypted, keeps it across URL changes, rotates it on demand, removes", async () => {
    const owner = await seedOwner(api);
    const first = await putWebhook(owner, { url: receiver.url });
    expect(first.status, first.text).toBe(200);
    const secret = first.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(first.body.data).toMatchObject({ url: receiver.url, enabled: true, secret_hint: `${secret.slice(0, 10)}…` });

    const stored = await api.db.notificationWebhook.findUniqueOrThrow({ where: { ownerId: owner.ownerId } });
    expect(Buffer.from(stored.secretEncrypted).toString("utf8")).not.toContain(secret.slice(6));

    const preferences = await api.call("GET", "/v1/me/notification-preferences", { token: owner.token });
    expect(preferences.body.data.webhook).toEqual({
      url: receiver.url,
      enabled: true,
      secret_hint: `${secret.slice(0, 10)}…`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(preferences.text).not.toContain(secret);

    const moved = await putWebhook(owner, { url: `${receiver.url}&moved=1` });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.secret).toBeUndefined();
    expect(moved.body.data.secret_hint).toBe(`${secret.slice(0, 10)}…`);

    const rotated = await putWebhook(owner, { url: receiver.url, rotate_secret: true });
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(secret);

    const removed = await putWebhook(owner, { url: null });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data).toEqual({ enabled: false, updated_at: expect.any(String) });
    expect((await api.call("GET", "/v1/me/notification-preferences", { token: owner.token })).body.data.webhook).toBeNull();
    // Set again after a removal: a new secret.
    const again = await putWebhook(owner, { url: receiver.url });
    expect(again.body.data.secret).toMatch(/^whsec_/);
    expect([secret, rotated.body.data.secret]).not.toContain(again.body.data.secret);

    const audit = await api.db.auditEntry.findMany({
      where: { ownerId: owner.ownerId, action: "notification_webhook.updated" },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => (entry.details as { action: string }).action)).toEqual([
      "set",
      "set",
      "rotated",
      "removed",
      "set",
    ]);
    expect(audit.find((entry) => (entry.details as { action: string }).action === "set")?.details).toMatchObject({
      host: new URL(receiver.url).host,
    });
    expect(JSON.stringify(audit)).not.toMatch(/whsec_/);
  });

  it("is the owner's own: owner B's webhook neither shows nor receives owner A's notifications", async () => {
    const a = await world();
    const b = await world();
    await setWebhook(b, `${receiver.url}&owner=b`);
    expect((await api.call("GET", "/v1/me/notification-preferences", { token: a.token })).body.data.webhook).toBeNull();
    await ingestSignals(api.db, a.ownerId, [signal(a)]);
    expect(await deliveries(a)).toEqual([]);
    expect(await deliveries(b)).toEqual([]);
  });
});

describe("delivery to the webhook", () => {
  it("POSTs the notification as created, signed over the timestamp and raw body, and records the attempt", async () => {
    const owner = await world();
    const secret = await setWebhook(owner);
    receiver.answer(204);
    const before = receiver.received.length;
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    const [notification] = await notificationsOf(owner);

    const now = new Date(Date.now() + 1_000);
    expect(await deliverDueNotifications(api.db, now)).toMatchObject({ attempted: 1, delivered: 1 });
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expectSignedBy(secret, got[0]!, now);
    const body = JSON.parse(got[0]!.body);
    expect(got[0]!.headers["x-service-event-id"]).toBe(body.id);
    expect(got[0]!.headers["content-type"]).toMatch(/^application\/json/);
    // The body is the notification as it read at creation (the list answers it the same way).
    expect(body).toEqual({
      id: expect.any(String),
      type: "notification.created",
      created_at: notification!.created_at,
      data: notification,
    });
    expect(Object.keys(body)).toEqual(["id", "type", "created_at", "data"]);

    const [after] = await notificationsOf(owner);
    expect(after!.delivered).toEqual([
      { channel: "in_app", at: notification!.created_at, status: "delivered" },
      { channel: "webhook", at: expect.any(String), status: "delivered", attempt: 1 },
    ]);
    expect(await deliverDueNotifications(api.db, new Date(now.getTime() + 24 * 3_600_000))).toMatchObject({ attempted: 0 });
    expect(receiver.received.length - before).toBe(1);
  });

  it("retries 1 m, 5 m, 30 m, 2 h, 6 h, 12 h after each failure (injected clock), the same bytes each time, then gives up", async () => {
    const owner = await world();
    const secret = await setWebhook(owner);
    receiver.answer(500);
    const before = receiver.received.length;
    const [ingested] = [await ingestSignals(api.db, owner.ownerId, [signal(owner)])];
    expect(ingested.accepted).toBe(1);
    let now = new Date(Date.now() + 1_000);
    expect(await deliverDueNotifications(api.db, now)).toMatchObject({ attempted: 1, failed: 1 });
    for (const delay of RETRY_DELAYS_MS) {
      // The next attempt is due `delay` after the failed one, to the millisecond: not before.
      const [delivery] = await deliveries(owner);
      const [notification] = await notificationsOf(owner);
      const failedAt = Date.parse(notification!.delivered.at(-1).at);
      expect(delivery!.nextAttemptAt.getTime() - failedAt).toBe(delay);
      expect(await deliverDueNotifications(api.db, new Date(failedAt + delay - 1))).toMatchObject({ attempted: 0 });
      now = new Date(failedAt + delay);
      expect(await deliverDueNotifications(api.db, now)).toMatchObject({ attempted: 1, failed: 1 });
      expectSignedBy(secret, receiver.received.at(-1)!, now);
    }
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(got.map((delivery) => delivery.body)).size).toBe(1);
    expect(new Set(got.map((delivery) => delivery.headers["x-service-event-id"])).size).toBe(1);
    expect(await deliverDueNotifications(api.db, new Date(now.getTime() + 7 * 24 * 3_600_000))).toMatchObject({ attempted: 0 });

    const [notification] = await notificationsOf(owner);
    const attempts = notification!.delivered.filter((entry: { channel: string }) => entry.channel === "webhook");
    expect(attempts.map((entry: { attempt: number }) => entry.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(
      attempts.every((entry: { status: string; error: string }) => entry.status === "failed" && entry.error === "http_500"),
    ).toBe(true);
    expect((await deliveries(owner))[0]).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
  });

  it("a removed or disabled webhook drops the queued attempts", async () => {
    const owner = await world();
    await setWebhook(owner);
    receiver.answer(503);
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    const now = new Date(Date.now() + 1_000);
    expect(await deliverDueNotifications(api.db, now)).toMatchObject({ attempted: 1, failed: 1 });
    expect((await putWebhook(owner, { url: receiver.url, enabled: false })).status).toBe(200);
    expect((await deliveries(owner))[0]).toMatchObject({ status: "dropped", attempts: 1 });
    // Nothing is queued while disabled; enabled again, new notifications are.
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    expect(await deliveries(owner)).toHaveLength(1);
    expect((await putWebhook(owner, { url: receiver.url })).status).toBe(200);
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    expect((await deliveries(owner)).map((delivery) => delivery.status)).toEqual(["dropped", "pending"]);
    expect((await putWebhook(owner, { url: null })).status).toBe(200);
    expect((await deliveries(owner)).map((delivery) => delivery.status)).toEqual(["dropped", "dropped"]);
    expect(await deliverDueNotifications(api.db, new Date(now.getTime() + 3_600_000))).toMatchObject({ attempted: 0 });
  });

  it("the webhook channel's switch and min severity decide what is queued; a muted code queues nothing", async () => {
    const owner = await world();
    await setWebhook(owner);
    const patch = (body: Record<string, unknown>) =>
      api.call("PATCH", "/v1/me/notification-preferences", { token: owner.token, body });
    expect((await patch({ channels: { webhook: { min_severity: "critical" } } })).status).toBe(200);
    await ingestSignals(api.db, owner.ownerId, [signal(owner, { code: "payout_paid" })]); // info
    expect(await deliveries(owner)).toHaveLength(0);
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]); // critical
    expect(await deliveries(owner)).toHaveLength(1);
    expect((await patch({ muted_codes: ["integration.*"] })).status).toBe(200);
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    expect(await deliveries(owner)).toHaveLength(1);
    expect((await patch({ muted_codes: [], channels: { webhook: { enabled: false } } })).status).toBe(200);
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    expect(await deliveries(owner)).toHaveLength(1);
    // Switched off after queueing: the queued one is dropped at its attempt, nothing sent.
    const before = receiver.received.length;
    const result = await deliverDueNotifications(api.db, new Date(Date.now() + 1_000));
    expect(result).toMatchObject({ attempted: 0, dropped: 1 });
    expect(receiver.received.length).toBe(before);
  });
});

describe("delivery by email", () => {
  it("sends critical notifications to the owner's address through SMTP (subject = title), recorded as an attempt", async () => {
    const owner = await world();
    const patch = await api.call("PATCH", "/v1/me/notification-preferences", {
      token: owner.token,
      body: { channels: { email: { enabled: true } } },
    });
    expect(patch.status, patch.text).toBe(200);
    const email = (await api.db.owner.findUniqueOrThrow({ where: { id: owner.ownerId } })).email;
    const since = sink.messages.length;
    await ingestSignals(api.db, owner.ownerId, [signal(owner, { code: "payout_paid" })]); // info: below critical
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    expect((await deliveries(owner)).map((delivery) => delivery.channel)).toEqual(["email"]);
    expect(await deliverDueNotifications(api.db, new Date(Date.now() + 1_000))).toMatchObject({ attempted: 1, delivered: 1 });
    const mail = await sink.waitForMail(email, { since });
    const [critical] = (await notificationsOf(owner)).filter((n) => n.severity === "critical");
    expect(mail.subject).toBe(critical!.title);
    expect(mail.text).toContain(critical!.body);
    expect(critical!.delivered.at(-1)).toMatchObject({ channel: "email", status: "delivered", attempt: 1 });
  });
});

describe("in the background", () => {
  it("a receiver that hangs never slows the write; a cut connection is a failed attempt, retried later", async () => {
    const owner = await world();
    await setWebhook(owner);
    const connected = await seedGenericWebhook(api, { business_id: owner.businessId }, owner.token);
    receiver.answer("hang");
    const jobs = await startScheduledJobs(async () => api.db, { jobs: [notificationDeliveryJob] });
    try {
      const raw = JSON.stringify({
        signals: [{ external_id: `gw_${randomUUID()}`, code: "account_suspended", occurred_at: "2026-11-20T10:00:00Z" }],
      });
      const started = Date.now();
      const response = await postDelivery(
        api,
        `/v1/webhooks/generic/${connected.integration_id}`,
        raw,
        serviceHeaders(connected.secret, raw),
      );
      expect(response.status, response.text).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000);
      // The job was woken and is now waiting on the receiver.
      const before = receiver.received.length;
      await waitUntil(async () => receiver.received.length > before || (await hasAttempt(owner)));
      receiver.dropConnections();
      await waitUntil(() => hasAttempt(owner));
      const [delivery] = await deliveries(owner);
      expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
      const [notification] = await notificationsOf(owner);
      expect(notification!.delivered.at(-1)).toMatchObject({ channel: "webhook", status: "failed", attempt: 1 });
    } finally {
      receiver.answer(204);
      await jobs.stop();
    }
  });

  it("deliveries left pending by a stopped server are sent when it starts again", async () => {
    const owner = await world();
    const secret = await setWebhook(owner);
    receiver.answer(204);
    // Written while no job runs (the server is down).
    await ingestSignals(api.db, owner.ownerId, [signal(owner)]);
    const before = receiver.received.length;
    const url = api.database.engine === "postgres" ? (api.database.target as { url: string }).url : undefined;
    const jobs = await startScheduledJobs(async () => api.db, {
      jobs: [notificationDeliveryJob],
      ...(url ? { databaseUrl: url, queue: { pollingIntervalSeconds: 0.5 } } : {}),
    });
    try {
      await waitUntil(async () => (await deliveries(owner))[0]?.status === "delivered");
      const got = receiver.received.slice(before);
      expect(got).toHaveLength(1);
      expect(JSON.parse(got[0]!.body).data.code).toBe("integration.payout_failed");
      expect(got[0]!.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(secret).toMatch(/^whsec_/);
    } finally {
      await jobs.stop();
    }
  });
});

async function hasAttempt(owner: TSeedOwner): Promise<boolean> {
  return (await deliveries(owner)).some((delivery) => delivery.attempts > 0);
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
