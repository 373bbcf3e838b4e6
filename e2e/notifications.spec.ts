// Notifications in a real browser (issue 15): a payout_failed signal arrives through the generic
// webhook, signed as any outside system signs it (HMAC-SHA256 over the exact raw body); the bell
// counts it, the owner opens it on /notifications and marks it read, and the bell is clear again.
// The inbox pages with "Load more" and "Mark all read"; the notification settings are saved and
// read back after a reload. The notification webhook: a refused URL says why, a local receiver
// (OUTBOUND_ALLOW_HOSTS) gets a secret shown once, receives a delivery signed as pinned and the
// attempt is logged; rotate and remove ask first. /notifications and Settings fit a 390 px phone
// and pass axe, light and dark. The spec has an owner of its own (signed in by mail): its counts,
// settings and webhook are not the other specs' as they run at the same time.
import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSession, lightAndDarkPasses, seriousViolations, signIn, switchPass } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots/notifications";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The spec's own owner's API session (beforeAll). */
let token = "";

const bearer = () => ({ Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() });

async function api<T>(request: APIRequestContext, method: "POST" | "PATCH" | "PUT", path: string, data: unknown, status: number) {
  const response = await request.fetch(path, { method, headers: bearer(), data });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

/** A delivery as the sender signs it: the exact bytes posted are the bytes signed. */
function signed(secret: string, body: string) {
  return {
    headers: {
      "Content-Type": "application/json",
      "X-Service-Signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
    },
    data: body,
  };
}

type THook = { integration_id: string; secret: string; webhook_url: string };

let hook: THook;

/** Posts signals to the generic webhook, signed with its secret; answers how many were accepted. */
async function sendSignals(request: APIRequestContext, signals: Array<Record<string, unknown>>) {
  const body = JSON.stringify({ signals });
  const response = await request.post(hook.webhook_url, signed(hook.secret, body));
  expect(response.status(), await response.text()).toBe(200);
  const answer = (await response.json()) as { data?: { signals_accepted: number } } & { signals_accepted?: number };
  return (answer.data ?? answer).signals_accepted;
}

function bell(page: Page) {
  return page.getByTestId("notification-bell");
}

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `notifications-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  const business = await api<{ id: string }>(request, "POST", "/v1/businesses", { name: `Bell Co ${RUN}`, currency: "EUR" }, 201);
  hook = await api<THook>(
    request,
    "POST",
    "/v1/integrations/generic/connect",
    { business_id: business.id, name: `Bell relay ${RUN}` },
    201,
  );
});

test("a signal from the generic webhook rings the bell; the owner opens it and marks it read", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await expect(bell(page)).toHaveAccessibleName("Notifications, none unread");
  await expect(page.getByTestId("unread-count")).toHaveCount(0);

  const accepted = await sendSignals(request, [
    {
      external_id: `payout-${RUN}`,
      code: "payout_failed",
      occurred_at: new Date().toISOString(),
      message: `Payout po_${RUN} of EUR 1,200.00 was returned: the bank account is closed.`,
    },
  ]);
  expect(accepted).toBe(1);

  // The bell asks again on its own every 30 s; a reload shows it at once.
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await expect(page.getByTestId("unread-count")).toHaveText("1");
  await page.screenshot({ path: `${SHOTS}/bell-desktop.png`, clip: { x: 0, y: 0, width: 260, height: 80 } });

  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  await expect(bell(page)).toHaveAttribute("aria-current", "page");

  // This run's payout.
  const item = page.getByRole("article", { name: "A payout to your bank account failed." }).filter({ hasText: `po_${RUN}` });
  await expect(item).toBeVisible();
  await expect(item).toContainText("Critical");
  await expect(item).toContainText("Unread");
  await expect(item).toContainText(`Payout po_${RUN} of EUR 1,200.00 was returned`);
  // Its kind in words, not its code.
  await expect(item).toContainText("Integration alert");
  await expect(item).not.toContainText("integration.payout_failed");
  await expect(item.getByRole("link", { name: /See the alerts/ })).toHaveAttribute("href", "/integrations#alerts-heading");
  await page.screenshot({ path: `${SHOTS}/inbox-unread-desktop.png`, fullPage: true });

  await item.getByRole("button", { name: /^Mark read/ }).click();
  await expect(item.getByRole("button", { name: /^Mark unread/ })).toBeVisible();
  await expect(item).not.toContainText("Unread");
  await expect(bell(page)).toHaveAccessibleName("Notifications, none unread");
  await expect(page.getByTestId("unread-count")).toHaveCount(0);

  // It stays read after a reload (the server has it), and can be marked unread again.
  await page.reload();
  await expect(item.getByRole("button", { name: /^Mark unread/ })).toBeVisible();
  await expect(page.getByTestId("unread-count")).toHaveCount(0);
  await item.getByRole("button", { name: /^Mark unread/ }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await item.getByRole("button", { name: /^Mark read/ }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications, none unread");
});

test("the inbox filters, pages with Load more, and marks everything read at once", async ({ page, request }) => {
  const occurred = Date.now();
  const signals = Array.from({ length: 21 }, (_, index) => ({
    external_id: `paused-${RUN}-${index}`,
    code: "campaign_paused",
    occurred_at: new Date(occurred - index * 1000).toISOString(),
    message: `Campaign ${index + 1} of the spring launch was paused by the platform.`,
  }));
  expect(await sendSignals(request, signals)).toBe(21);

  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 21 unread");
  await page.goto("/notifications");
  const items = page.locator(".notification-list > li");
  // The first test's payout is read: the unread ones are this test's alone.
  await page.getByRole("group", { name: "Show" }).getByRole("button", { name: "Unread" }).click();
  await expect(page.getByRole("heading", { name: "Unread notifications" })).toBeVisible();
  await expect(items).toHaveCount(20);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(items).toHaveCount(21);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  await expect(items.filter({ hasText: "Campaign 21 of the spring launch" })).toHaveCount(1);

  // Filters combine: critical ones (the unread campaign alerts are warnings), then a kind.
  await page.getByLabel("Severity").selectOption({ label: "Critical" });
  await expect(page.getByRole("heading", { name: "No notification matches these filters" })).toBeVisible();
  await page.getByLabel("Severity").selectOption({ label: "Warning" });
  await expect(items).toHaveCount(20);
  await expect(items.filter({ hasNotText: "Warning" })).toHaveCount(0);
  // Kinds, not codes: no approval waits; the campaign alerts are integration alerts.
  await page.getByLabel("Kind").selectOption({ label: "Approvals" });
  await expect(page.getByRole("heading", { name: "No notification matches these filters" })).toBeVisible();
  await page.getByLabel("Kind").selectOption({ label: "Integration alerts" });
  await expect(items).toHaveCount(20);
  await expect(items.filter({ hasNotText: "Integration alert" })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/inbox-filtered-desktop.png`, fullPage: true });
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByLabel("Severity")).toHaveValue("");
  await expect(page.getByRole("heading", { name: "All notifications" })).toBeVisible();

  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked 21 notifications read." })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications, none unread");
  await expect(page.getByRole("button", { name: "Mark all read" })).toBeDisabled();
  await page.getByRole("group", { name: "Show" }).getByRole("button", { name: "Unread" }).click();
  await expect(page.getByRole("heading", { name: "You are all caught up" })).toBeVisible();
});

test("notification settings are saved and read back after a reload; a code that cannot be muted is refused where it was typed", async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Notifications" });
  await expect(form.getByRole("checkbox", { name: "In the panel" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "In the panel" })).toBeDisabled();
  await expect(form.getByText("Nothing is muted")).toBeVisible();

  // A code that cannot be one is refused where it was typed.
  await form.getByLabel("Code to mute").fill("not a code!");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(form.getByText(/Use letters, digits and \. _ : - only/)).toBeVisible();
  await expect(form.getByLabel("Code to mute")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Code to mute").fill("integration.campaign_*");
  await form.getByRole("button", { name: "Add" }).click();
  await form.getByLabel("Code to mute").fill("approval.pending");
  await form.getByLabel("Code to mute").press("Enter");
  const muted = form.getByRole("list", { name: "Muted codes" });
  await expect(muted.getByRole("listitem")).toHaveText(["integration.campaign_*", "approval.pending"]);
  await form.getByRole("button", { name: "Unmute approval.pending" }).click();
  await expect(muted.getByRole("listitem")).toHaveText(["integration.campaign_*"]);

  await form.getByLabel("Webhook receives").selectOption({ label: "Warnings and critical" });
  await form.getByRole("checkbox", { name: "Email" }).check();
  await form.getByLabel("Email receives").selectOption({ label: "Critical only" });
  await form.getByRole("button", { name: "Save notification settings" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved. New notifications follow these settings.");

  await page.reload();
  const reloaded = page.getByRole("form", { name: "Notifications" });
  await expect(reloaded.getByRole("list", { name: "Muted codes" }).getByRole("listitem")).toHaveText(["integration.campaign_*"]);
  await expect(reloaded.getByLabel("Webhook receives")).toHaveValue("warning");
  await expect(reloaded.getByRole("checkbox", { name: "Email" })).toBeChecked();
  await expect(reloaded.getByLabel("Email receives")).toHaveValue("critical");
  await reloaded.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/settings-desktop.png`, fullPage: true });

  // Back to the defaults, so this spec's later tests get every notification.
  await reloaded.getByRole("button", { name: "Unmute integration.campaign_*" }).click();
  await reloaded.getByLabel("Webhook receives").selectOption("info");
  await reloaded.getByRole("checkbox", { name: "Email" }).uncheck();
  await reloaded.getByRole("button", { name: "Save notification settings" }).click();
  await expect(reloaded.getByRole("status")).toHaveText("Saved. New notifications follow these settings.");
  await expect(reloaded.getByText("Nothing is muted")).toBeVisible();
});

/** A real local receiver for the notification webhook: records every POST (headers and raw body) and answers 200. */
async function startReceiver() {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notify`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the notification webhook: a private address is refused in words, a local receiver (allowed host) gets a secret shown once, signed deliveries are logged, the secret rotates and the webhook is removed", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const receiver = await startReceiver();
  try {
    await page.setViewportSize(DESKTOP);
    await signIn(page, token);
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Notification webhook" });
    const form = section.getByRole("form", { name: "Notification webhook" });
    await expect(section.getByText("No webhook is set.")).toBeVisible();

    // Refused by the server's URL rules: the rule in words, beside the field.
    await form.getByLabel("Webhook URL").fill("https://192.168.1.20/notify");
    await form.getByRole("button", { name: "Set webhook" }).click();
    await expect(form.getByText("This address is private or local; the webhook must be a public https URL.")).toBeVisible();
    await expect(form.getByLabel("Webhook URL")).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("Webhook URL").fill("ftp://example.com/notify");
    await form.getByRole("button", { name: "Set webhook" }).click();
    await expect(form.getByText("The webhook must use https.")).toBeVisible();

    // The local receiver's host is in OUTBOUND_ALLOW_HOSTS (playwright.config.ts): accepted over http.
    await form.getByLabel("Webhook URL").fill(receiver.url);
    await form.getByRole("button", { name: "Set webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "Your webhook's signing secret" });
    await expect(dialog).toBeVisible();
    const secret = await dialog.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/webhook-secret-desktop.png` });
    await dialog.getByRole("button", { name: "I have copied the secret" }).click();
    await expect(dialog).toBeHidden();
    await expect(section.getByTestId("webhook-url")).toHaveText(receiver.url);
    await expect(section).toContainText("Enabled");
    await expect(page.getByText(secret)).toHaveCount(0);

    // A signal → a notification → a signed POST to the receiver, checked here with node's HMAC.
    expect(
      await sendSignals(request, [
        { external_id: `hook-${RUN}`, code: "account_suspended", occurred_at: new Date().toISOString() },
      ]),
    ).toBe(1);
    await expect.poll(() => receiver.received.length, { timeout: 40_000 }).toBeGreaterThan(0);
    const delivery = receiver.received[0]!;
    const timestamp = String(delivery.headers["x-service-timestamp"]);
    const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest("hex")}`;
    expect(delivery.headers["x-service-signature"]).toBe(expected);
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: "notification.created",
      data: { code: "integration.account_suspended" },
    });

    // The attempt is in the delivery log once the server recorded it.
    const log = page.getByRole("region", { name: "Recent deliveries" });
    await expect
      .poll(
        async () => {
          await log.getByRole("button", { name: "Refresh" }).click();
          return log.getByRole("row").filter({ hasText: "Webhook" }).filter({ hasText: "Delivered" }).count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await expect(log.getByRole("row").filter({ hasText: "An ad account was suspended." }).first()).toContainText("#1");
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/webhook-set-desktop.png`, fullPage: true });

    // Rotate: asked first, then a new secret shown once.
    await section.getByRole("button", { name: "Rotate secret" }).click();
    await section.getByRole("group", { name: "Confirm secret rotation" }).getByRole("button", { name: "Rotate now" }).click();
    const rotated = page.getByRole("dialog", { name: "A new signing secret" });
    await expect(rotated).toBeVisible();
    const newSecret = await rotated.getByLabel("Signing secret").inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await page.keyboard.press("Escape");
    await expect(rotated).toBeVisible();
    await rotated.getByRole("button", { name: "I have copied the secret" }).click();
    await expect(section.getByRole("status")).toHaveText(/secret was rotated/);

    // Remove: asked first; afterwards no webhook, and the URL field is empty.
    await section.getByRole("button", { name: "Remove webhook" }).click();
    await section.getByRole("group", { name: "Confirm webhook removal" }).getByRole("button", { name: "Remove now" }).click();
    await expect(section.getByRole("status")).toHaveText("The webhook was removed. Nothing more is sent to it.");
    await expect(section.getByText("No webhook is set.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("region", { name: "Notification webhook" }).getByText("No webhook is set.")).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("/notifications and Settings fit a 390 px phone and pass axe, light and dark; the bell is in the phone's bar", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  // A webhook nobody answers (a closed local port), so Settings shows one and its failed attempt.
  await api(request, "PUT", "/v1/me/notification-webhook", { url: "http://127.0.0.1:9/closed" }, 200);
  // One unread notification, so the inbox shows an unread item and the bell a count.
  expect(
    await sendSignals(request, [
      {
        external_id: `phone-${RUN}`,
        code: "dispute_opened",
        occurred_at: new Date().toISOString(),
        amount_minor: 4_900,
        currency: "EUR",
      },
    ]),
  ).toBe(1);
  await expect
    .poll(
      async () => {
        const latest = await request.get("/v1/notifications?limit=1&code=integration.dispute_opened", { headers: bearer() });
        const [first] = ((await latest.json()) as { data: Array<{ delivered: Array<{ channel: string }> }> }).data;
        return first?.delivered.some((attempt) => attempt.channel === "webhook") ?? false;
      },
      // Woken at once by the write; the job's own 30 s run is the fallback.
      { timeout: 40_000 },
    )
    .toBe(true);
  // One page per path for the four passes: the scheme and the viewport switch on it (switchPass).
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, colorScheme: "light" });
  const page = await context.newPage();
  await signIn(page, token);
  for (const path of ["/notifications", "/settings"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    for (const [colorScheme, size, viewport] of lightAndDarkPasses(DESKTOP, PHONE)) {
      await switchPass(page, colorScheme, viewport);
      const where = `${path} (${size}, ${colorScheme})`;
      expect.soft(await seriousViolations(page), `axe on ${where}`).toEqual([]);
      if (size === "phone") {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect.soft(width, `${where} is no wider than the screen`).toBeLessThanOrEqual(PHONE.width);
        // The bell is in the bar, seen with the menu closed.
        await expect(bell(page)).toBeVisible();
        await expect(bell(page)).toHaveAccessibleName(/^Notifications, (\d+|none) unread$/);
      }
      const name = path === "/notifications" ? "inbox" : "settings";
      await page.screenshot({ path: `${SHOTS}/${name}-${size}-${colorScheme}.png`, fullPage: true });
      await page.screenshot({ path: `${SHOTS}/${name}-${size}-${colorScheme}-top.png` });
    }
  }
  // The phone's menu, open, in both schemes (last: the passes above see it closed).
  for (const colorScheme of ["light", "dark"] as const) {
    await switchPass(page, colorScheme, PHONE);
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(bell(page)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/menu-open-phone-${colorScheme}.png` });
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");
  }
  await context.close();
  await api(request, "PUT", "/v1/me/notification-webhook", { url: null }, 200);
});
