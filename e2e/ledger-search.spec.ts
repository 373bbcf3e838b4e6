// The ledger as a finance product (issue 14): searching, sorting and filtering the events,
// the filtered totals, the CSV export of what is shown (formula cells neutralised), and
// correcting and voiding an expense with the Overview's totals following. A new owner each
// run (an API session), so every figure is known.
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { addDays, todayUtc } from "../lib/days";
import { apiSession, asBearer, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
// Two days ago: in the Overview's last 30 days, and not after "today" in any timezone.
const DAY = addDays(todayUtc(), -2);
const FORMULA = '=HYPERLINK("http://evil.test","Refund")';

let token: string;
let currency: string;

async function call<T>(request: APIRequestContext, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const response = await asBearer(request, token, method, path, body);
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function overviewOut(request: APIRequestContext): Promise<number> {
  return (await call<{ data: { last_30_days: { out_minor: number } } }>(request, "GET", "/v1/overview")).data.last_30_days
    .out_minor;
}

async function openEvents(page: Page) {
  await page.goto("/events");
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
}

function row(page: Page, text: string | RegExp) {
  return page.getByRole("row", { name: text });
}

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `ledger-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  currency = (await call<{ data: { base_currency: string } }>(request, "GET", "/v1/me")).data.base_currency;
  const business = (await call<{ data: { id: string } }>(request, "POST", "/v1/businesses", { name: "Search Co", currency }))
    .data;
  const entry = (path: string, amount: number, description: string, category?: string) =>
    call(request, "POST", path, {
      business_id: business.id,
      amount_minor: amount,
      currency,
      occurred_on: DAY,
      description,
      ...(category ? { category } : {}),
    });
  await entry("/v1/expenses", 1500, "Figma seat", "Software");
  await entry("/v1/expenses", 90000, "Office rent", "Office");
  await entry("/v1/expenses", 1234, FORMULA);
  await entry("/v1/revenues", 250000, "Invoice ACME 50%", "Sales");
});

test("searching, sorting and filtering the ledger, with the filtered totals", async ({ page }) => {
  await signIn(page, token);
  await openEvents(page);
  const totals = page.getByRole("status", { name: "Totals of the matching events" });
  await expect(totals.getByTestId("totals-in")).toContainText("2,500.00");
  await expect(totals.getByTestId("totals-out")).toContainText("927.34");
  await expect(totals.getByTestId("totals-net")).toContainText("1,572.66");
  await expect(totals.getByTestId("totals-net")).toContainText("+");

  // Expenses and revenues differ by sign, not only by colour.
  await expect(row(page, /Figma seat/).getByTestId("event-amount")).toContainText("\u2212");
  await expect(row(page, /Figma seat/).getByTestId("event-amount")).toHaveClass(/money-out/);
  await expect(row(page, /Invoice ACME/).getByTestId("event-amount")).toContainText("+");
  await expect(row(page, /Invoice ACME/).getByTestId("event-amount")).toHaveClass(/money-in/);

  // Search: description and category, case-insensitive; % is a character, not a wildcard.
  await page.getByLabel("Search events").fill("FIGMA");
  await expect(row(page, /Office rent/)).toHaveCount(0);
  await expect(row(page, /Figma seat/)).toBeVisible();
  await expect(totals.getByTestId("totals-out")).toContainText("15.00");
  await expect(totals.getByTestId("totals-in")).toContainText("0.00");
  await page.getByLabel("Search events").fill("50%");
  await expect(row(page, /Invoice ACME/)).toBeVisible();
  await expect(row(page, /Figma seat/)).toHaveCount(0);
  await page.getByLabel("Search events").fill("office");
  await expect(row(page, /Office rent/)).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await page.getByLabel("Search events").fill("");

  // Sort by amount: the largest first.
  await page.getByLabel("Sort").selectOption("-amount");
  await expect(page.locator("tbody tr").first()).toContainText("Invoice ACME");
  await page.getByLabel("Sort").selectOption("amount");
  await expect(page.locator("tbody tr").first()).toContainText("HYPERLINK");

  // Category and source filters; nothing imported yet says so.
  await page.getByLabel("Category filter").fill("software");
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(row(page, /Figma seat/)).toBeVisible();
  await page.getByLabel("Category filter").fill("");
  await page.getByLabel("Source").selectOption("IMPORT");
  await expect(page.getByText("No matching events")).toBeVisible();
  // Nothing matches: the totals are zero, and no "0 counted" beside them (it adds nothing; issue 37).
  await expect(totals.getByTestId("totals-in")).toHaveText(/^\+\D*0\.00\D*$/);
  await expect(totals).not.toContainText("counted");
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(row(page, /Figma seat/)).toBeVisible();
  await expectNoSeriousViolations(page, "events");
  await page.screenshot({ path: `${SHOTS}/ledger-search.png`, fullPage: true });
});

test("exporting the shown rows as CSV, formula cells neutralised", async ({ page }) => {
  await signIn(page, token);
  await openEvents(page);
  await page.getByLabel("Search events").fill("hyperlink");
  await expect(page.locator("tbody tr")).toHaveCount(1);
  const link = page.getByRole("link", { name: "Export CSV" });
  await expect(link).toHaveAttribute("href", /q=hyperlink/);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^events-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync((await download.path())!, "utf8");
  const lines = text.trimEnd().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^id,occurred_on,type,state,status,direction,amount,currency,/);
  expect(lines[1]).toContain(`,out,12.34,${currency},`);
  // The formula is text now: an apostrophe first, quoted as CSV needs.
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.test"",""Refund"")"`);
  expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
});

test("correcting and voiding an expense: the old version voided, the Overview follows", async ({ page, request }) => {
  await signIn(page, token);
  const outBefore = await overviewOut(request);
  expect(outBefore).toBe(1500 + 90000 + 1234);
  await openEvents(page);

  // Correct the rent: every error of the form at once, then the new amount.
  await row(page, /Office rent/)
    .getByRole("button", { name: /^Correct/ })
    .click();
  const dialog = page.getByRole("dialog", { name: /Correct this expense/ });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Amount").fill("abc");
  await dialog.getByLabel("Date").fill("2999-01-01");
  await dialog.getByRole("button", { name: "Save correction" }).click();
  await expect(dialog.getByText("Enter an amount such as 12.34.")).toBeVisible();
  await expect(dialog.getByText("An actual event cannot be in the future.")).toBeVisible();
  await expectNoSeriousViolations(page, "correct dialog");
  await page.screenshot({ path: `${SHOTS}/ledger-correct-dialog.png` });
  await dialog.getByLabel("Amount").fill("950.00");
  await dialog.getByLabel("Date").fill(DAY);
  await dialog.getByLabel("Reason (optional)").fill("the rent went up");
  await dialog.getByRole("button", { name: "Save correction" }).click();
  await expect(dialog).toBeHidden();

  const versions = row(page, /Office rent/);
  await expect(versions).toHaveCount(2);
  await expect(versions.filter({ hasText: "voided" })).toHaveCount(1);
  await expect(versions.filter({ hasText: "corrected version" }).getByTestId("event-amount")).toContainText("950.00");
  await expect(page.getByTestId("totals-out")).toContainText("977.34");
  expect(await overviewOut(request)).toBe(1500 + 95000 + 1234);

  // Void the Figma seat, after confirming.
  await row(page, /Figma seat/)
    .getByRole("button", { name: /^Void/ })
    .click();
  const confirm = page.getByRole("dialog", { name: /Void this expense/ });
  await expect(confirm).toContainText("no longer counts");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row(page, /Figma seat/)).not.toContainText("voided");
  await row(page, /Figma seat/)
    .getByRole("button", { name: /^Void/ })
    .click();
  await page
    .getByRole("dialog", { name: /Void this expense/ })
    .getByRole("button", { name: "Void event" })
    .click();
  await expect(row(page, /Figma seat/)).toContainText("voided");
  await expect(row(page, /Figma seat/).getByRole("button", { name: /^Void/ })).toHaveCount(0);
  await expect(page.getByTestId("totals-out")).toContainText("962.34");
  expect(await overviewOut(request)).toBe(95000 + 1234);

  // The Overview page shows the same.
  await page.goto("/overview");
  const last30 = page.getByTestId("in-out-chart").locator('tr[data-row="last-30-days"]');
  await expect(last30.getByTestId("out-minor")).toContainText("962.34");
  await expect(last30.getByTestId("in-minor")).toContainText("2,500.00");
});

test("the events page fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, token);
  await openEvents(page);
  await expect(row(page, /Invoice ACME/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: `${SHOTS}/ledger-phone.png`, fullPage: true });
  await row(page, /Invoice ACME/)
    .getByRole("button", { name: /^Correct/ })
    .click();
  await expect(page.getByRole("dialog", { name: /Correct this revenue/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: `${SHOTS}/ledger-phone-dialog.png` });
});
