// The pages for what only the API offered before issue 14: budget reservations (create with
// every error at once, release in part and in full), cash (record balances for a business and
// for personal, the latest per account, a same-day reading replacing the earlier one), the
// audit log (filters, a record's history, an empty result), and editable settings (name, time
// zone, locale, and a base currency change previewed before it is saved). axe finds no serious
// violation on any of them, and none is wider than a 390 px phone.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { asBearer, E2E_BASE_URL, E2E_OWNER_TOKEN, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
const BUSINESS = "Northwind Pages";

const PAGES = [
  { path: "/reservations", heading: "Budget reservations", nav: "Reservations" },
  { path: "/cash", heading: "Cash", nav: "Cash" },
  { path: "/audit", heading: "Audit log", nav: "Audit log" },
  { path: "/settings", heading: "Settings", nav: "Settings" },
] as const;

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function patchMe(request: APIRequestContext, body: Record<string, string>) {
  const response = await request.fetch(`${E2E_BASE_URL}/v1/me`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Idempotency-Key": crypto.randomUUID() },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(200);
}

let businessId: string;

test.beforeAll(async ({ request }) => {
  const created = await asBearer(request, E2E_OWNER_TOKEN, "POST", "/v1/businesses", { name: BUSINESS, currency: "EUR" });
  expect(created.status(), await created.text()).toBe(201);
  businessId = ((await created.json()) as { data: { id: string } }).data.id;
});

test("a budget reservation is created (every error at once first), released in part, then in full", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reservations" }).click();
  await expect(page.getByRole("heading", { name: "Budget reservations", level: 1 })).toBeVisible();
  const list = page.getByRole("region", { name: "Reservations", exact: true });
  await expect(list.getByRole("heading", { name: "No active reservations" })).toBeVisible();
  await expect(list).toContainText("sets money aside");

  const form = page.getByRole("form", { name: "Reserve budget" });
  await expect(form.getByLabel("Scope").locator("option", { hasText: BUSINESS })).toBeAttached();
  await form.getByLabel("Scope").selectOption({ label: BUSINESS });
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByLabel("Amount").fill("12.345");
  await form.getByRole("button", { name: "Reserve budget" }).click();
  // Both wrong fields at once: the amount (the panel's own check) and the empty purpose (the server's).
  await expect(form.getByText("EUR has 2 decimals: enter at most 2.")).toBeVisible();
  await expect(form.getByText("Must not be empty.")).toBeVisible();
  await expect(form.getByLabel("Purpose")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Purpose").fill("Q3 ad campaign");
  await form.getByLabel("Amount").fill("250");
  await form.getByLabel("Expires on (optional)").fill("2099-12-31");
  await form.getByRole("button", { name: "Reserve budget" }).click();
  await expect(form.getByRole("status")).toHaveText("The reservation “Q3 ad campaign” was added.");
  const row = list.getByRole("row", { name: /Q3 ad campaign/ });
  await expect(row).toContainText(BUSINESS);
  await expect(row).toContainText("€250.00");
  await expect(row).toContainText("≈ $"); // the base currency (USD) at today's rate
  await expect(row).toContainText("2099-12-31");
  await expect(row).toContainText("active");
  await shot(page, "reservations");

  await row.getByRole("button", { name: "Release Q3 ad campaign" }).click();
  const release = page.getByRole("region", { name: "Release “Q3 ad campaign”" });
  await expect(release.getByLabel("Amount to release (EUR)")).toHaveValue("250.00");
  await release.getByLabel("Amount to release (EUR)").fill("100");
  await release.getByRole("button", { name: "Release", exact: true }).click();
  await expect(page.getByText("Released part of “Q3 ad campaign”; €150.00 remain reserved.")).toBeVisible();
  await expect(row).toContainText("€150.00");

  await row.getByRole("button", { name: "Release Q3 ad campaign" }).click();
  await expect(release.getByLabel("Amount to release (EUR)")).toHaveValue("150.00");
  await release.getByRole("button", { name: "Release", exact: true }).click();
  await expect(page.getByText("“Q3 ad campaign” was released in full.")).toBeVisible();
  await expect(list.getByRole("heading", { name: "No active reservations" })).toBeVisible();
  await list.getByRole("button", { name: "Released" }).click();
  await expect(list.getByRole("row", { name: /Q3 ad campaign/ })).toContainText("released");

  // Its history, from its row: the audit log filtered to this reservation.
  await list.getByRole("link", { name: "History of Q3 ad campaign in the audit log" }).click();
  await expect(page).toHaveURL(/\/audit\?target_type=budget_reservation&target_id=[0-9a-f-]{36}$/);
  const history = page.getByRole("region", { name: "Matching entries" });
  await expect(history.getByRole("row")).toHaveCount(4); // header, created, released in part, released
  await expect(history.getByRole("row").nth(3)).toContainText("Budget reservation created");
});

test("cash: balances recorded for a business and for personal show per account, a later reading replaces the day's", async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cash" }).click();
  await expect(page.getByRole("heading", { name: "Cash", level: 1 })).toBeVisible();
  const latest = page.getByRole("region", { name: "Latest balance per account" });
  await expect(latest.getByRole("heading", { name: "No balances yet" })).toBeVisible();

  const form = page.getByRole("form", { name: "Record a balance" });
  // Every error at once: no account and no amount.
  await form.getByLabel("Account").fill("");
  await form.getByRole("button", { name: "Record cash" }).click();
  await expect(form.getByText("Enter an amount such as 12.34.")).toBeVisible();
  await expect(form.getByText("Must not be empty.")).toBeVisible();

  await expect(form.getByLabel("Business or personal").locator("option", { hasText: BUSINESS })).toBeAttached();
  await form.getByLabel("Business or personal").selectOption({ label: BUSINESS });
  await expect(form.getByLabel("Currency")).toHaveValue("EUR"); // the business's currency
  await form.getByLabel("Account").fill("main");
  await form.getByLabel("Amount").fill("1234.56");
  await form.getByRole("button", { name: "Record cash" }).click();
  await expect(form.getByRole("status").first()).toHaveText("The balance of main was added.");

  await form.getByLabel("Business or personal").selectOption({ label: "Personal" });
  await form.getByLabel("Account").fill("savings");
  await form.getByLabel("Amount").fill("500");
  await form.getByLabel("Currency").selectOption("USD");
  await form.getByRole("button", { name: "Record cash" }).click();
  await expect(form.getByRole("status").first()).toHaveText("The balance of savings was added.");

  const business = latest.getByRole("region", { name: BUSINESS, exact: true });
  await expect(business.getByRole("row", { name: /main/ })).toContainText("€1,234.56");
  await expect(business).toContainText("Total ≈ $"); // EUR shown in the base currency too
  const personal = latest.getByRole("region", { name: "Personal", exact: true });
  await expect(personal.getByRole("row", { name: /savings/ })).toContainText("$500.00");

  // A later reading of the same account on the same day replaces the earlier one.
  await form.getByLabel("Business or personal").selectOption({ label: BUSINESS });
  await form.getByLabel("Account").fill("main");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByLabel("Amount").fill("2000");
  await form.getByRole("button", { name: "Record cash" }).click();
  await expect(business.getByRole("row", { name: /main/ })).toContainText("€2,000.00");
  await expect(latest).not.toContainText("€1,234.56");
  const recent = page.getByRole("region", { name: "Recent snapshots", exact: true });
  await expect(recent.getByRole("row")).toHaveCount(3); // header + one per account and day
  await expect(recent).toContainText("2 snapshots");
  await shot(page, "cash");
});

test("the audit log filters by who, what, which record and when", async ({ page, request }) => {
  const created = await asBearer(request, E2E_OWNER_TOKEN, "POST", "/v1/budget-reservations", {
    business_id: businessId,
    amount_minor: 9_900,
    currency: "EUR",
    purpose: "Audit trail check",
  });
  expect(created.status(), await created.text()).toBe(201);
  const reservationId = ((await created.json()) as { data: { id: string } }).data.id;
  const released = await asBearer(request, E2E_OWNER_TOKEN, "POST", `/v1/budget-reservations/${reservationId}/release`, {});
  expect(released.status(), await released.text()).toBe(200);

  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const entries = page.getByRole("region", { name: "All entries" });
  await expect(entries.getByRole("row", { name: /Business created/ }).first()).toBeVisible();

  const filters = page.getByRole("form", { name: "Filters" });
  await filters.getByLabel("Who").selectOption("owner");
  await filters.getByLabel("Action").fill("cash_snapshot.*");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  const matching = page.getByRole("region", { name: "Matching entries" });
  await expect(matching.getByRole("row", { name: /Cash balance created/ })).toHaveCount(2);
  await expect(matching.getByRole("row", { name: /Cash balance replaced/ })).toHaveCount(1);
  await expect(matching.getByRole("row", { name: /Budget reservation/ })).toHaveCount(0);

  await filters.getByLabel("Action").fill("reservation.*");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(matching.getByRole("row", { name: /Budget reservation released/ })).toHaveCount(3);
  // The address carries the filters: a reload keeps them.
  await expect(page).toHaveURL(/actor_type=owner&action=reservation\.\*/);
  await page.reload();
  await expect(filters.getByLabel("Action")).toHaveValue("reservation.*");
  await expect(matching.getByRole("row", { name: /Budget reservation released/ })).toHaveCount(3);
  await shot(page, "audit");

  // One record's history, from its row.
  await matching
    .getByRole("button", { name: `Show the history of budget reservation ${reservationId}` })
    .first()
    .click();
  await expect(filters.getByLabel("Record type")).toHaveValue("budget_reservation");
  await expect(filters.getByLabel("Record ID")).toHaveValue(reservationId);
  await expect(matching.getByRole("row")).toHaveCount(3); // header, created, released
  await expect(matching.getByRole("row").nth(1)).toContainText("Budget reservation released");
  await expect(matching.getByRole("row").nth(2)).toContainText("Budget reservation created");

  // A date range with nothing in it.
  await filters.getByLabel("To").fill("2000-01-01");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(matching.getByRole("heading", { name: "No entry matches these filters" })).toBeVisible();
  await filters.getByLabel("From").fill("2000-02-01");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(filters.getByText("The first day must not be after the last day.")).toBeVisible();

  await filters.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByRole("region", { name: "All entries" }).getByRole("row").first()).toBeVisible();
});

test("settings: name, time zone, locale and a base currency change previewed before it is saved", async ({ page, request }) => {
  const expense = await asBearer(request, E2E_OWNER_TOKEN, "POST", "/v1/expenses", {
    personal: true,
    amount_minor: 1_000,
    currency: "USD",
    occurred_on: "2026-11-01",
  });
  expect(expense.status(), await expense.text()).toBe(201);
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  const form = page.getByRole("form", { name: "Profile and preferences" });
  await expect(form.getByLabel("Base currency", { exact: true })).toHaveValue("USD");
  await form.getByLabel("Name").fill("Ada Founder");
  await form.getByLabel("Time zone").selectOption("Europe/Berlin");
  await form.getByLabel("Locale").selectOption("de-DE");
  // A base the rate source cannot convert to: the preview says PATCH would refuse it; no save.
  await form.getByLabel("Base currency", { exact: true }).selectOption("ZAR");
  const refused = form.getByRole("region", { name: "Changing the base currency from USD to ZAR" });
  await expect(refused.getByRole("alert")).toContainText("This change would be refused now:");
  await expect(refused).toContainText("ZAR");
  await expect(form.getByRole("button", { name: "Save and restate in ZAR" })).toBeDisabled();

  await form.getByLabel("Base currency", { exact: true }).selectOption("EUR");

  const preview = form.getByRole("region", { name: "Changing the base currency from USD to EUR" });
  await expect(preview).toContainText("restated in EUR from their original amounts, each at the rate of its own day");
  // The one expense of this run is restated at its own day's rate; the other records are counted.
  await expect(preview).toContainText("1 recorded event restated in EUR");
  await expect(preview.getByRole("row", { name: /USD/ })).toContainText(/1 USD = \d+\.\d{8} EUR/);
  await expect(preview).toContainText("2 budget reservations and 2 cash balances keep their own currency");
  await expect(preview).toContainText(/1 USD = \d+\.\d{8} EUR today/);
  await shot(page, "settings-preview");
  await form.getByRole("button", { name: "Save and restate in EUR" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved. Your books are now kept in EUR.");

  await page.reload();
  const saved = page.getByRole("form", { name: "Profile and preferences" });
  await expect(saved.getByLabel("Name")).toHaveValue("Ada Founder");
  await expect(saved.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(saved.getByLabel("Locale")).toHaveValue("de-DE");
  await expect(saved.getByLabel("Base currency", { exact: true })).toHaveValue("EUR");
  await expect(saved.getByRole("region", { name: /Changing the base currency/ })).toHaveCount(0);

  // Back as the rest of the run expects it.
  await patchMe(request, { base_currency: "USD", timezone: "UTC", locale: "en-US" });
});

test("the pages pass axe and fit a 390 px phone", async ({ page }) => {
  await signIn(page);
  for (const { path, heading } of PAGES) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoSeriousViolations(page, path);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at 390 px`).toBeLessThanOrEqual(PHONE.width);
    await expectNoSeriousViolations(page, `${path} at 390 px`);
    await shot(page, `${path.slice(1)}-390`);
  }
});
