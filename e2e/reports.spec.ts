// The Reports page (issue 36): a new owner's two months of a business, the profit and loss by
// month with each figure a link to the events behind it (the Events page takes its filters from
// the address, so the link, a reload and a shared address keep them), the pickers in the
// address, the cash line, and the CSV export; axe in light and dark, the 390 px phone layout,
// screenshots in test-results/screenshots/reports/.
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { addDays, todayUtc } from "../lib/days";
import { apiSession, asBearer, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots/reports";
const PHONE = { width: 390, height: 844 };
const THIS_MONTH = `${todayUtc().slice(0, 7)}-01`;
const LAST_MONTH_DAY = addDays(THIS_MONTH, -10);

let token: string;
let currency: string;
let businessId: string;

async function call<T>(request: APIRequestContext, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const response = await asBearer(request, token, method, path, body);
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `reports-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  currency = (await call<{ data: { base_currency: string } }>(request, "GET", "/v1/me")).data.base_currency;
  businessId = (await call<{ data: { id: string } }>(request, "POST", "/v1/businesses", { name: "Report Co", currency })).data.id;
  const entry = (path: string, amount: number, day: string, description: string, category: string) =>
    call(request, "POST", path, {
      business_id: businessId,
      amount_minor: amount,
      currency,
      occurred_on: day,
      description,
      category,
    });
  await entry("/v1/revenues", 300000, LAST_MONTH_DAY, "Invoice 1", "Sales");
  await entry("/v1/expenses", 45000, LAST_MONTH_DAY, "Design tool", "Software");
  await entry("/v1/expenses", 12000, LAST_MONTH_DAY, "Hosting", "Software");
  await entry("/v1/revenues", 150000, THIS_MONTH, "Invoice 2", "Sales");
  await call(request, "POST", "/v1/cash-snapshots", {
    business_id: businessId,
    amount_minor: 1000000,
    currency,
    as_of: `${LAST_MONTH_DAY}T09:00:00Z`,
    payload: { account_id: "main" },
  });
});

test("profit and loss by month, each figure a link to its events, the pickers in the address, the exports", async ({ page }) => {
  await signIn(page, token);
  // The Overview and the business page lead here, with the last 12 months' net.
  await page.goto(`/businesses/${businessId}`);
  await expect(page.getByTestId("reports-teaser")).toContainText("3,930.00");
  await page.goto("/overview");
  await page.getByTestId("reports-teaser").getByRole("link", { name: "Open the reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await page.getByLabel("Scope").selectOption({ label: "Report Co" });
  await page.getByLabel("From").fill(addDays(THIS_MONTH, -31));
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`scope=business%3A${businessId}`));

  const table = page.getByTestId("pnl-table");
  const software = table.getByRole("row", { name: /Out Software/ });
  await expect(software).toContainText("570.00");
  await expect(table.getByTestId("pnl-total-net")).toContainText("3,930.00");
  await expect(page.getByTestId("change-card")).toBeVisible();
  await expect(page.getByTestId("cash-history-chart")).toBeVisible();

  // A reload keeps the report.
  await page.reload();
  await expect(page.getByTestId("pnl-table").getByRole("row", { name: /Out Software/ })).toContainText("570.00");

  // The CSV of the same report.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-pnl-csv").click()]);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toMatch(/^label,key,direction,currency,/);
  expect(csv).toContain("Software,Software,out,");

  // The figure opens the Events page filtered to exactly its events, the filters in the address.
  await page
    .getByTestId("pnl-table")
    .getByRole("link", { name: /^Software, .*: .*570\.00, show the events$/ })
    .click();
  await expect(page).toHaveURL(/\/events\?.*category=Software/);
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Category filter")).toHaveValue("Software");
  await expect(page.locator("tbody tr")).toHaveCount(2);
  await page.reload();
  await expect(page.getByLabel("Category filter")).toHaveValue("Software");
  await expect(page.locator("tbody tr")).toHaveCount(2);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe-clean in ${colorScheme}, usable at 390 px, screenshots`, async ({ browser, baseURL }) => {
    for (const [size, viewport] of [
      ["desktop", { width: 1280, height: 900 }],
      ["phone", PHONE],
    ] as const) {
      const context = await browser.newContext({ baseURL, colorScheme, viewport });
      const page = await context.newPage();
      await signIn(page, token);
      await page.goto(`/reports?scope=business:${businessId}`);
      await expect(page.getByTestId("pnl-table")).toBeVisible();
      await expectNoSeriousViolations(page, `reports ${size} ${colorScheme}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/reports-${size}-${colorScheme}.png`, fullPage: true });
      await context.close();
    }
  });
}

test("the Uncategorized and No project rows lead to the ledger's no-category and no-project filters, kept in the address", async ({
  page,
  request,
}) => {
  const looseId = (await call<{ data: { id: string } }>(request, "POST", "/v1/businesses", { name: "Loose Ends Co", currency }))
    .data.id;
  const entry = (path: string, amount: number, description: string, category?: string) =>
    call(request, "POST", path, {
      business_id: looseId,
      amount_minor: amount,
      currency,
      occurred_on: LAST_MONTH_DAY,
      description,
      ...(category ? { category } : {}),
    });
  await entry("/v1/expenses", 500, "Bank fee");
  await entry("/v1/expenses", 2500, "Train ticket", "Travel");
  await entry("/v1/revenues", 100000, "Invoice 7", "Sales");
  await signIn(page, token);

  // By category: the expense without one is the Uncategorized row.
  await page.goto(`/reports?scope=business:${looseId}&group_by=category`);
  await page
    .getByTestId("pnl-table")
    .getByRole("link", { name: /^Uncategorized, .*: .*5\.00, show the events$/ })
    .click();
  await expect(page).toHaveURL(/\/events\?.*no_category=true/);
  await expect(page).toHaveURL(/side=out/);
  await expect(page.getByRole("checkbox", { name: "No category" })).toBeChecked();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText("Bank fee");
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "No category" })).toBeChecked();
  await expect(page.locator("tbody tr")).toHaveCount(1);

  // By project: the business has none, so its money out is the No project row (both expenses),
  // and its money in the other No project row (the revenue).
  await page.goto(`/reports?scope=business:${looseId}&group_by=project`);
  const table = page.getByTestId("pnl-table");
  await table.getByRole("link", { name: /^No project, .*: .*30\.00, show the events$/ }).click();
  await expect(page).toHaveURL(/\/events\?.*no_project=true/);
  await expect(page.getByRole("checkbox", { name: "No project" })).toBeChecked();
  await expect(page.getByLabel("Counted")).toHaveValue("out");
  await expect(page.locator("tbody tr")).toHaveCount(2);
  await expect(page.locator("tbody tr", { hasText: "Invoice 7" })).toHaveCount(0);
  await page.goBack();
  await page
    .getByTestId("pnl-table")
    .getByRole("link", { name: /^No project, .*: .*1,000\.00, show the events$/ })
    .click();
  await expect(page).toHaveURL(/no_project=true/);
  await expect(page.getByLabel("Counted")).toHaveValue("in");
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText("Invoice 7");
  await page.screenshot({ path: `${SHOTS}/reports-no-project-events.png`, fullPage: true });
});
