// Integrations in a real browser: the catalog (with a bank provider that is coming soon), a
// generic webhook connected through the panel with its secret shown once, then a REAL signed
// delivery from the test (HMAC-SHA256 over the exact raw body, as any outside system would
// send it) whose revenue event and payout signal reach the page after a reload: the
// connection's last sync and the alert. A provider account connects with the signing secret its
// platform shows, receives what the platform signs with it, replaces it, and syncs.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSession, expectNoSeriousViolations, lightAndDarkPasses, signIn, switchPass } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const BUSINESS = `Hooks & Co ${RUN}`;
const WEBHOOK_NAME = "E2E invoicing system";
const SHOTS = "test-results/screenshots";

// An owner of its own (signed in by mail): the catalog's count of connections and the recent
// alerts are this spec's alone while the other specs connect webhooks at the same time.
let token = "";

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `integrations-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
});

/** A business through the REST API as the spec's owner. */
async function createBusiness(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/v1/businesses", {
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
    data: { name, currency: "EUR" },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** A delivery as the sender signs it: the exact bytes posted are the bytes signed. */
function signedDelivery(secret: string, body: string) {
  return {
    headers: {
      "Content-Type": "application/json",
      "X-Service-Signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
    },
    data: body,
  };
}

async function openIntegrations(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).click();
  await expect(page).toHaveURL(/\/integrations$/);
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
}

/** Every text and form value on the page (a secret must be in neither). */
async function everythingOnThePage(page: Page): Promise<string> {
  const values = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")].map((el) => el.value).join("\n"),
  );
  return `${await page.content()}\n${values}`;
}

test("a generic webhook is connected, shows its secret once and receives a signed delivery", async ({ page, request }) => {
  await createBusiness(request, BUSINESS);
  await signIn(page, token);
  await openIntegrations(page);

  // The catalog: what can be connected now, and what is coming.
  const catalog = page.getByRole("region", { name: "Providers" });
  const bank = catalog.getByRole("row", { name: /Bank provider A/ });
  await expect(bank).toContainText("coming soon");
  await expect(bank).toContainText("bank");
  const generic = catalog.getByRole("row", { name: /Generic signed webhook/ });
  await expect(generic).toContainText("available");
  const connectedBefore = Number(await generic.getByRole("cell").last().innerText());

  // The owner is shared with the other specs (a statement import adds its own connection and
  // may raise alerts): nothing of this test's business is connected yet.
  const alerts = page.getByRole("region", { name: "Recent alerts" });
  await expect(page.getByRole("region", { name: "Connections" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Connections" }).getByText(BUSINESS)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/integrations-empty.png`, fullPage: true });

  // Connect: the secret, the webhook URL and how to sign, once.
  const form = page.getByRole("form", { name: "Connect generic webhook" });
  await expect(form.getByLabel("Business").locator("option", { hasText: BUSINESS })).toBeAttached();
  await form.getByLabel("Business").selectOption({ label: BUSINESS });
  await form.getByLabel("Name (optional)").fill(WEBHOOK_NAME);
  await form.getByRole("button", { name: "Create webhook" }).click();

  const dialog = page.getByRole("dialog", { name: `${WEBHOOK_NAME} is connected` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("it will not be shown again.")).toBeVisible();
  const secret = await dialog.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32,}$/);
  const webhookUrl = await dialog.getByLabel("Webhook URL").inputValue();
  const integrationId = /\/v1\/webhooks\/generic\/([0-9a-f-]{36})$/.exec(webhookUrl)?.[1];
  expect(integrationId, `webhook URL ${webhookUrl}`).toBeTruthy();

  const example = dialog.getByLabel("Signing example");
  await expect(example).toHaveValue(/X-Service-Signature/);
  await expect(example).toHaveValue(new RegExp(webhookUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
  await dialog.getByRole("button", { name: "curl + openssl" }).click();
  await expect(example).toHaveValue(/openssl dgst -sha256 -hmac/);
  await dialog.getByRole("button", { name: "Copy signing secret" }).click();
  await expect(dialog.getByRole("button", { name: "Copied signing secret" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/integrations-secret.png` });

  await dialog.getByRole("button", { name: "I have copied the secret" }).click();
  await expect(dialog).toBeHidden();
  // The dialog hides at once; its content goes with the close event's re-render, a moment later.
  await expect.poll(() => everythingOnThePage(page)).not.toContain(secret);

  // Listed, never synced yet; the catalog counts it.
  const connection = page.getByRole("row", { name: new RegExp(WEBHOOK_NAME) });
  await expect(connection).toContainText(BUSINESS);
  await expect(connection).toContainText("active");
  await expect(connection.getByTestId("last-sync")).toHaveText("never");
  await expect(generic.getByRole("cell").last()).toHaveText(String(connectedBefore + 1));

  // A wrong signature is refused and changes nothing.
  const today = new Date().toISOString().slice(0, 10);
  const body = JSON.stringify({
    events: [
      {
        integration_id: integrationId,
        external_id: "e2e-1",
        type: "revenue",
        state: "actual",
        amount_minor: 1234,
        currency: "EUR",
        occurred_on: today,
        source_type: "IMPORT",
      },
    ],
    signals: [{ external_id: "sig-1", code: "payout_failed", occurred_at: new Date().toISOString() }],
  });
  const forged = await request.post(webhookUrl, signedDelivery(`${secret}x`, body));
  expect(forged.status()).toBe(401);

  // The real delivery, signed with the secret read from the page.
  const delivered = await request.post(webhookUrl, signedDelivery(secret, body));
  expect(delivered.status(), await delivered.text()).toBe(200);
  const answer = (await delivered.json()) as { data?: Record<string, unknown> } & Record<string, unknown>;
  expect(answer.data ?? answer).toMatchObject({ inserted: 1, deduped: 0, rejected: [], signals_accepted: 1, signals_deduped: 0 });

  // After a reload: synced just now, the alert listed, and the secret gone for good.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  const lastSync = connection.getByTestId("last-sync");
  await expect(lastSync.locator("time")).toBeVisible();
  await expect(lastSync).not.toHaveText("never");
  await expect(lastSync.locator("time")).toHaveAttribute("title", /\d/);

  const alert = alerts.getByRole("row", { name: /A payout to your bank account failed/ });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("critical");
  await expect(alert).toContainText("integration.payout_failed");
  await expect(alerts.getByText("No alerts")).toHaveCount(0);

  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  expect(await everythingOnThePage(page)).not.toContain(secret);
  await page.screenshot({ path: `${SHOTS}/integrations.png`, fullPage: true });
});

test("a provider account connects with its signing secret, receives what it signs, and replaces it", async ({
  page,
  request,
}) => {
  await signIn(page, token);
  await openIntegrations(page);

  const form = page.getByRole("form", { name: "Connect a provider account" });
  await expect(form.getByLabel("Provider", { exact: true }).locator("option", { hasText: "Payments A" })).toBeAttached();
  // Only what can be connected with an account id is offered: no bank provider, no OAuth.
  await expect(form.getByLabel("Provider", { exact: true }).locator("option", { hasText: "Bank provider" })).toHaveCount(0);
  await form.getByLabel("Provider", { exact: true }).selectOption({ label: "Payments A" });
  // Where the platform shows the secret, for the chosen provider.
  const secretField = form.getByLabel("Signing secret");
  await expect(secretField).toHaveAccessibleDescription(
    /Payments A dashboard → Developers → Webhooks → your endpoint → Signing secret\..*\/v1\/webhooks\/payments_a/,
  );

  // Nothing filled: every missing field is named at once.
  await form.getByRole("button", { name: "Connect account" }).click();
  await expect(form.getByLabel("Business")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Provider account id")).toHaveAttribute("aria-invalid", "true");
  await expect(secretField).toHaveAttribute("aria-invalid", "true");
  await expect(secretField).toHaveAccessibleDescription(/required: copy it from the platform/i);
  await axePasses(page, "the connect form with its errors");
  await form.screenshot({ path: `${SHOTS}/integrations-connect-errors.png` });

  const account = `acct_e2e_${RUN}`;
  const secret = `e2e-payments-secret-${RUN}-${randomUUID().slice(0, 8)}`;
  await form.getByLabel("Business").selectOption({ label: BUSINESS });
  await form.getByLabel("Provider account id").fill(account);
  await secretField.fill(secret);
  await form.getByLabel("Connection name (optional)").fill("E2E payments");
  await form.getByRole("button", { name: "Connect account" }).click();
  await expect(form.getByRole("status")).toHaveText("E2E payments was connected.");
  await expect(secretField).toHaveValue("");
  expect(await everythingOnThePage(page)).not.toContain(secret);

  const connection = page.getByRole("row", { name: /E2E payments/ });
  await expect(connection).toContainText(account);
  await expect(connection.getByTestId("last-sync")).toHaveText("never");

  // The platform signs the account's charges with that secret: they reach the connection; a
  // charge signed with anything else is refused.
  const charge = (id: string) =>
    JSON.stringify({
      id: `evt_${id}`,
      type: "charge.succeeded",
      account,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id, object: "charge", amount: 1999, currency: "eur", created: Math.floor(Date.now() / 1000) } },
    });
  const signedCharge = (key: string, body: string) => {
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", key).update(`${t}.${body}`).digest("hex");
    return { headers: { "Content-Type": "application/json", "X-PaymentsA-Signature": `t=${t},v1=${v1}` }, data: body };
  };
  const forged = charge(`ch_forged_${RUN}`);
  expect((await request.post("/v1/webhooks/payments_a", signedCharge(`${secret}x`, forged))).status()).toBe(401);
  const paid = charge(`ch_paid_${RUN}`);
  const delivered = await request.post("/v1/webhooks/payments_a", signedCharge(secret, paid));
  expect(delivered.status(), await delivered.text()).toBe(200);
  await page.reload();
  await expect(connection.getByTestId("last-sync")).not.toHaveText("never");

  // The platform rotated the secret: replace it (a dialog; an empty one is refused).
  await connection.getByRole("button", { name: "Replace secret of E2E payments" }).click();
  const dialog = page.getByRole("dialog", { name: "Replace the signing secret of E2E payments" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Replace secret" }).click();
  await expect(dialog.getByLabel("Signing secret")).toHaveAttribute("aria-invalid", "true");
  await axePasses(page, "the replace-secret dialog with its error");
  await dialog.screenshot({ path: `${SHOTS}/integrations-replace-secret.png` });
  const rotated = `e2e-payments-rotated-${RUN}-${randomUUID().slice(0, 8)}`;
  await dialog.getByLabel("Signing secret").fill(rotated);
  await dialog.getByRole("button", { name: "Replace secret" }).click();
  await expect(dialog).toBeHidden();
  const connections = page.getByRole("region", { name: "Connections" });
  await expect(connections.getByRole("status")).toContainText("The signing secret of E2E payments was replaced");
  expect((await request.post("/v1/webhooks/payments_a", signedCharge(secret, charge(`ch_old_${RUN}`)))).status()).toBe(401);
  expect((await request.post("/v1/webhooks/payments_a", signedCharge(rotated, charge(`ch_new_${RUN}`)))).status()).toBe(200);
  expect(await everythingOnThePage(page)).not.toContain(rotated);

  await connection.getByRole("button", { name: "Sync E2E payments" }).click();
  await expect(connections.getByRole("status")).toContainText(/E2E payments synced: \d+ events? inserted, \d+ deduped/);
  await expect(connection.getByRole("button", { name: "Sync E2E payments" })).toBeEnabled();
  await connections.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/integrations-sync.png` });
});

/** axe finds nothing serious in light and dark, on a desktop and on a 390 px phone (no wider than it). */
async function axePasses(page: Page, label: string) {
  const desktop = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const [scheme, size, viewport] of lightAndDarkPasses(desktop, { width: 390, height: 844 })) {
    await switchPass(page, scheme, viewport);
    await expectNoSeriousViolations(page, `${label} (${scheme}, ${size})`);
    if (size === "phone") expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
  await switchPass(page, "light", desktop);
}
