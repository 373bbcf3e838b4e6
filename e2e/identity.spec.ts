// The identity side of the panel in a real browser, signed in THROUGH THE MAIL: the sign-in
// page mails a link (Auth.js → the real SMTP sink of scripts/e2e-server.ts), the link signs a
// new owner in; sessions (this device, API sessions, revoke, sign out everywhere else); an
// agent with its one-time token, which then calls the REST API; the approvals inbox; the
// agent's page (rotate, suspend, revoke); sign-out ends the session for good.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { apiSession, asBearer, E2E_BASE_URL, linkFrom, SAME_ORIGIN, waitForMail } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots";

function newEmail(label: string): string {
  return `${label}-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`;
}

/** A screenshot for review (test-results/screenshots/), from the top of the page. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

/** Opens a mailed link: the confirmation page names the address; its button signs in. */
async function openAndConfirm(page: Page, link: string, email: string): Promise<void> {
  await page.goto(link);
  await expect(page).toHaveURL(/\/sign-in\/verify\?/);
  await expect(page.getByRole("heading", { name: "Confirm your sign-in" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // Opening the link signed nothing in.
  expect((await page.context().cookies()).some((cookie) => cookie.name === "fbo_token")).toBe(false);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByTestId("owner-email")).toHaveText(email);
}

async function requestLinkFromPage(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in\?sent=1/);
}

test("an owner signs in through the mailed link, runs an agent, decides its request, and signs out", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = newEmail("founder");
  const nav = page.getByRole("navigation", { name: "Main" });

  await test.step("the sign-in page refuses a malformed address in place", async () => {
    await page.goto("/sign-in");
    await shot(page, "sign-in", false);
    await page.getByLabel("Email").fill("not-an-address");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByText("That does not look like an email address. Check it and try again.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByText("Use an owner token").click();
    await shot(page, "sign-in-error-and-token", false);
  });

  let link = "";
  await test.step("a new address gets a link by mail and lands signed in", async () => {
    await requestLinkFromPage(page, email);
    await shot(page, "sign-in-check-inbox", false);
    const mail = await waitForMail(email);
    expect(mail.subject).toContain("sign-in link");
    link = linkFrom(mail);
    expect(link.startsWith(`${E2E_BASE_URL}/sign-in/verify?`)).toBe(true);

    // A mail scanner (or a foreign page) fetching the link spends nothing and sets no cookie.
    const scanned = await request.get(link, { maxRedirects: 0 });
    expect(scanned.status()).toBe(200);
    expect(scanned.headers()["set-cookie"] ?? "").not.toContain("fbo_token");
    await openAndConfirm(page, link, email);
  });

  await test.step("the link worked once: opened again it offers a new one", async () => {
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    await other.goto(link);
    await expect(other).toHaveURL(/\/sign-in\?error=Verification$/);
    await expect(other.getByText("This sign-in link was already used or has expired.")).toBeVisible();
    await expect(other.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
    await stranger.close();
  });

  await test.step("the sessions page lists this device; revoke one, then sign out everywhere else", async () => {
    // Two API sessions of the same owner (REST magic link → verify), beside this browser's.
    const [firstApi, secondApi] = [await apiSession(request, email), await apiSession(request, email)];
    await nav.getByRole("link", { name: "Sessions" }).click();
    await expect(page).toHaveURL(/\/settings\/sessions$/);
    await expect(page.getByRole("heading", { name: "Sessions", level: 1 })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Sessions" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Settings" })).not.toHaveAttribute("aria-current", "page");

    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(3);
    const current = page.getByRole("row", { name: /This device/ });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText("Panel");
    await expect(current).toContainText("active");
    await expect(current.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(page.getByRole("row", { name: /API/ })).toHaveCount(2);
    await shot(page, "sessions");

    await page
      .getByRole("row", { name: /API/ })
      .first()
      .getByRole("button", { name: /^Revoke/ })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "was signed out" })).toBeVisible();
    await expect(rows).toHaveCount(2);

    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Signed out 1 other session." })).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(page.getByRole("row", { name: /This device/ })).toBeVisible();

    // Both API tokens are refused now; this browser still works.
    for (const token of [firstApi, secondApi]) {
      expect((await asBearer(request, token, "GET", "/v1/me")).status()).toBe(401);
    }
    await page.getByRole("button", { name: "All, with history" }).click();
    await expect(page.getByRole("row", { name: /revoked/ })).toHaveCount(2);
  });

  let agentToken = "";
  await test.step("an agent is created with an ads grant; its token is shown once", async () => {
    await nav.getByRole("link", { name: "Agents" }).click();
    await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
    await expect(page.getByText("No agents yet")).toBeVisible();

    await page.getByLabel("Agent name").fill("Ads optimiser");
    await page.getByRole("button", { name: "Add grant" }).click();
    const grant = page.getByRole("group", { name: "Grant 1" });
    await grant.getByLabel("Scope").selectOption("ads");
    await grant.getByLabel("Resource").selectOption("*");
    await grant.getByLabel("Level").selectOption("recommend");
    await grant.getByLabel("Currency").selectOption("EUR");

    // More decimals than the currency has is refused, never rounded.
    await grant.getByLabel("Daily limit").fill("12.345");
    await page.getByRole("button", { name: "Create agent" }).click();
    await expect(grant.getByText("EUR has 2 decimals: enter at most 2.")).toBeVisible();
    await grant.getByLabel("Daily limit").fill("12.34");
    await shot(page, "agents-new-form");

    // The server's validation answer appears beside the field it concerns.
    await page.getByLabel("Allowed IP ranges").fill("not-an-address");
    await page.getByRole("button", { name: "Create agent" }).click();
    await expect(page.getByText("“not-an-address” must be an IP address or CIDR range.")).toBeVisible();
    await expect(page.getByLabel("Allowed IP ranges")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Allowed IP ranges").fill("");

    await page.getByRole("button", { name: "Create agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Ads optimiser is ready" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("you will not see it again.")).toBeVisible();
    agentToken = await dialog.getByLabel("Agent token").inputValue();
    expect(agentToken).toMatch(/^agt_[A-Za-z0-9_-]{40,}$/);
    await dialog.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(dialog.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
    await shot(page, "agents-token", false);

    await dialog.getByRole("button", { name: "I have copied it" }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole("row", { name: /Ads optimiser/ });
    await expect(row).toContainText("active");
    await expect(row).toContainText("Ads · Recommend · All resources · €12.34/day");
    await expect(row).toContainText(agentToken.slice(0, 10));
    // The token is not on the page any more.
    await expect(page.getByText(agentToken)).toHaveCount(0);
    await expect(page.getByLabel("Agent name")).toHaveValue("");
    await shot(page, "agents");
  });

  await test.step("the agent asks for data through the REST API with its token", async () => {
    const response = await asBearer(request, agentToken, "POST", "/v1/data-requests", {
      action: "provide_data",
      description: "Last quarter's invoices",
      reason: "forecast needs them",
    });
    expect(response.status()).toBe(202);
    const body = (await response.json()) as { data: { approval: { id: string; status: string } } };
    expect(body.data.approval.status).toBe("pending");
  });

  await test.step("the request waits in Approvals; the owner approves it with a note", async () => {
    await page.reload();
    await expect(nav.getByTestId("pending-approvals-count")).toHaveText("1");
    await nav.getByRole("link", { name: /Approvals/ }).click();
    await expect(page.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();

    const item = page.getByRole("article", { name: "Provide data" });
    await expect(item).toBeVisible();
    await expect(item).toContainText("Ads optimiser");
    await expect(item).toContainText("“forecast needs them”");
    await expect(item).toContainText("Last quarter's invoices");
    await expect(item).toContainText("The agent asked");
    await expect(item).toContainText("pending");
    await expect(item.getByRole("button", { name: "Dismiss" })).toBeVisible();
    await shot(page, "approvals");

    await item.getByLabel(/Note/).fill("Uploaded the Q3 invoices to the shared folder");
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Approved: Provide data (Ads optimiser)." })).toBeVisible();
    await expect(page.getByText("Nothing waits for you")).toBeVisible();
    await expect(nav.getByTestId("pending-approvals-count")).toHaveCount(0);

    await page.getByRole("button", { name: "All", exact: true }).click();
    const decided = page.getByRole("article", { name: "Provide data" });
    await expect(decided).toContainText("approved");
    await expect(decided).toContainText("Uploaded the Q3 invoices to the shared folder");
    await expect(decided).toContainText("What it did: Done.");
    await expect(decided).not.toContainText("succeeded");
    await expect(decided.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await page.getByRole("button", { name: "Changes", exact: true }).click();
    await expect(page.getByText("No approvals yet")).toBeVisible();
    await page.getByRole("button", { name: "Requests" }).click();
    await expect(page.getByRole("article", { name: "Provide data" })).toBeVisible();
    await shot(page, "approvals-decided");
  });

  await test.step("the agent's page: edit, rotate the token, suspend, reactivate, revoke", async () => {
    await nav.getByRole("link", { name: "Agents" }).click();
    await page.getByRole("link", { name: "Ads optimiser" }).click();
    await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Ads optimiser", level: 1 })).toBeVisible();

    // Edit: rename, and the limit shows in major units, as typed.
    const grant = page.getByRole("group", { name: "Grant 1" });
    await expect(grant.getByLabel("Daily limit")).toHaveValue("12.34");
    await page.getByLabel("Agent name").fill("Ads optimiser EU");
    await grant.getByLabel("Monthly limit").fill("250");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Ads optimiser EU", level: 1 })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("group", { name: "Grant 1" }).getByLabel("Monthly limit")).toHaveValue("250.00");

    await shot(page, "agent-detail");
    await page.getByRole("button", { name: "Rotate token" }).click();
    await page.getByRole("button", { name: "Rotate now" }).click();
    const dialog = page.getByRole("dialog", { name: "New token for Ads optimiser EU" });
    await expect(dialog).toBeVisible();
    const rotated = await dialog.getByLabel("Agent token").inputValue();
    expect(rotated).toMatch(/^agt_/);
    expect(rotated).not.toBe(agentToken);
    await dialog.getByRole("button", { name: "I have copied it" }).click();
    expect((await asBearer(request, agentToken, "GET", "/v1/me")).status()).toBe(401);
    expect((await asBearer(request, rotated, "GET", "/v1/me")).status()).toBe(200);

    await page.getByRole("button", { name: "Suspend agent" }).click();
    await expect(page.getByRole("button", { name: "Reactivate agent" })).toBeVisible();
    expect((await asBearer(request, rotated, "GET", "/v1/me")).status()).toBe(403);
    await page.getByRole("button", { name: "Reactivate agent" }).click();
    await expect(page.getByRole("button", { name: "Suspend agent" })).toBeVisible();

    await page.getByRole("button", { name: "Revoke agent…" }).click();
    await page.getByRole("button", { name: "Yes, revoke it" }).click();
    await expect(page.getByText("This agent was revoked")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
    await shot(page, "agent-revoked");
    expect((await asBearer(request, rotated, "GET", "/v1/me")).status()).toBe(401);
  });

  await test.step("sign out: the old cookie no longer works", async () => {
    const cookie = (await page.context().cookies()).find((entry) => entry.name === "fbo_token");
    expect(cookie?.value).toMatch(/^ses_/);
    await page.getByRole("button", { name: "Sign out" }).last().click();
    await expect(page).toHaveURL(/\/sign-in$/);

    const replay = await request.get(`/api/trpc/me.get?input=${encodeURIComponent("{}")}`, {
      headers: { cookie: `fbo_token=${cookie!.value}` },
    });
    expect(replay.status()).toBe(401);
    expect((await asBearer(request, cookie!.value, "GET", "/v1/me")).status()).toBe(401);
    await page.goto("/agents");
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});

test("the REST mail's link signs in through /sign-in/verify, once", async ({ page, request, browser }) => {
  const email = newEmail("api-founder");
  const asked = await request.post("/v1/auth/magic-link", { data: { email } });
  expect(asked.status()).toBe(202);
  const link = linkFrom(await waitForMail(email));
  expect(link.startsWith(`${E2E_BASE_URL}/sign-in/verify?token=`)).toBe(true);

  // Opened (a GET), the link only asks for confirmation: no cookie, the token unspent.
  const opened = await request.get(link, { maxRedirects: 0 });
  expect(opened.status()).toBe(200);
  expect(opened.headers()["set-cookie"] ?? "").not.toContain("fbo_token");
  expect(opened.headers()["referrer-policy"]).toBe("same-origin");
  // A foreign page posting the confirmation form is refused, and the token stays usable.
  const forged = await request.post("/api/panel/verify", {
    form: { token: new URL(link).searchParams.get("token")! },
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(303);
  expect(forged.headers()["location"]).toBe("/sign-in?error=csrf_rejected");
  expect(forged.headers()["set-cookie"] ?? "").not.toContain("fbo_token");

  await openAndConfirm(page, link, email);
  const cookie = (await page.context().cookies()).find((entry) => entry.name === "fbo_token");
  expect(cookie?.value).toMatch(/^ses_/);
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");

  // Used once: in another browser the same link offers a new one.
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(link);
  await expect(other).toHaveURL(/\/sign-in\?error=login_token_invalid$/);
  await expect(other.getByText("This sign-in link was already used or has expired.")).toBeVisible();
  await other.goto("/sign-in/verify?token=not-a-real-token");
  await expect(other.getByText("This sign-in link was already used or has expired.")).toBeVisible();
  await expect(other.getByLabel("Email")).toBeVisible();
  await stranger.close();

  // The panel's own link request answers the same for a known address (nothing leaks).
  await page.context().clearCookies();
  await requestLinkFromPage(page, email);
  await waitForMail(email, { count: 2 });
});

test("the link's confirmation page looks finished on a 390 px phone", async ({ page, request }) => {
  const email = newEmail("a-rather-long-address-for-a-small-phone-screen");
  expect((await request.post("/v1/auth/magic-link", { data: { email } })).status()).toBe(202);
  const link = linkFrom(await waitForMail(email));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Confirm your sign-in" })).toBeVisible();
  await expect(page).toHaveTitle(/Confirm sign-in/);
  const button = page.getByRole("button", { name: "Sign in", exact: true });
  await expect(button).toBeVisible();
  await shot(page, "sign-in-confirm-390");

  // Nothing wider than the screen (the long address wraps); the button is reachable and large
  // enough to tap; one h1; every control has a name (no axe here: a dependency-free check).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.height).toBeGreaterThanOrEqual(36);
  await expect(page.locator("h1")).toHaveCount(1);
  expect(await page.locator("html").getAttribute("lang")).toBe("en");
  const unnamed = await page
    .locator("button, a[href], input:not([type=hidden])")
    .evaluateAll(
      (elements) => elements.filter((element) => !(element.textContent?.trim() || element.getAttribute("aria-label"))).length,
    );
  expect(unnamed).toBe(0);

  await button.click();
  await expect(page).toHaveURL(/\/overview$/);
});

test("agent endpoints of the panel need the owner's cookie", async ({ request }) => {
  const anonymous = await request.post("/api/trpc/agents.create", { headers: SAME_ORIGIN, data: { name: "Nope" } });
  expect(anonymous.status()).toBe(401);
  const pending = await request.get(
    `/api/trpc/approvals.find?input=${encodeURIComponent(JSON.stringify({ status: "pending" }))}`,
  );
  expect(pending.status()).toBe(401);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the email form still mails a link, and the link still signs in", async ({ page }) => {
    const email = newEmail("no-script");
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("still not an address");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByText("That does not look like an email address. Check it and try again.")).toBeVisible();

    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
    await openAndConfirm(page, linkFrom(await waitForMail(email)), email);
  });
});
