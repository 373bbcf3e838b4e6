// The Daily brief page in a real browser. A NEW owner (an API session through the mailed link)
// seeds today's money, cash, commitments and a waiting approval through the REST API, and the
// page shows exactly the API's brief: its headline, figures, largest movements and the week
// ahead. Going back a day (the owner began today, so the day before is before their books)
// and forward again, and the date picker. axe finds no serious violation; the page fits a
// 390 px phone; screenshots (desktop, phone, dark) go to test-results/screenshots/.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { addDays, todayIn } from "../lib/days";
import { formatMinor } from "../lib/money";
import { apiSession, asBearer, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });
// axe four times and full-page screenshots on one page.
test.setTimeout(120_000);

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

type TBrief = {
  data: {
    date: string;
    currency: string;
    headline: string;
    day: { in_minor: number; out_minor: number; net_minor: number; events: number; largest: { description: string | null }[] };
    cash: { amount_minor: number } | null;
    upcoming_7_days: { name: string }[];
    pending_approvals: { count: number };
  };
};

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const figure = (page: Page, id: string) => page.getByTestId(`figure-${id}`).getByTestId("figure-value");

let token = "";
let today = "";
let locale = "en-US";

async function post(request: APIRequestContext, path: string, body: unknown, status = 201) {
  const response = await asBearer(request, token, "POST", path, body);
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(status);
  return (await response.json()) as { data: { id: string; token?: string } };
}

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `brief-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  const me = (await (await asBearer(request, token, "GET", "/v1/me")).json()) as { data: { timezone: string; locale: string } };
  locale = me.data.locale;
  today = todayIn(me.data.timezone);
  const business = (await post(request, "/v1/businesses", { name: "Northwind Studio", currency: "USD" })).data.id;
  await post(request, "/v1/cash-snapshots", {
    business_id: business,
    amount_minor: 1_250_000,
    currency: "USD",
    as_of: new Date(Date.now() - 60_000).toISOString(),
    payload: { account_id: "main" },
  });
  const events: Array<[string, number, number, string]> = [
    ["/v1/revenues", 420_000, 0, "Website launch"],
    ["/v1/expenses", 185_050, 0, "Contractors"],
    ["/v1/expenses", 9_990, 0, "Cloud"],
    ["/v1/planned-expenses", 250_000, 3, "Office lease"],
  ];
  for (const [path, amount_minor, days, description] of events)
    await post(request, path, {
      business_id: business,
      amount_minor,
      currency: "USD",
      occurred_on: addDays(today, days),
      description,
    });
  await post(request, "/v1/subscriptions", {
    business_id: business,
    name: "Design suite",
    amount_minor: 4_999,
    currency: "USD",
    billing_interval: "month",
    next_charge_on: addDays(today, 5),
  });
  const agent = await post(request, "/v1/agents", { name: "Brief helper" });
  const asked = await asBearer(request, agent.data.token!, "POST", "/v1/data-requests", {
    action: "provide_data",
    description: "Last quarter's invoices",
    reason: "the forecast needs them",
  });
  expect(asked.status()).toBe(202);
});

test("today's brief shows the API's figures, on a desktop, a phone and in dark", async ({ page, request }) => {
  const brief = (await (await asBearer(request, token, "GET", "/v1/daily-brief")).json()) as TBrief;
  expect(brief.data).toMatchObject({ date: today, day: { events: 3 }, pending_approvals: { count: 1 } });
  const money = (minor: number) => formatMinor(minor, brief.data.currency, locale);

  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Daily brief" }).click();
  await expect(page).toHaveURL(/\/brief$/);
  await expect(page.getByRole("heading", { name: "Daily brief", level: 1 })).toBeVisible();
  await expect(page.getByTestId("brief-headline")).toHaveText(brief.data.headline);
  await expect(figure(page, "day-in")).toHaveText(money(420_000));
  await expect(figure(page, "day-out")).toHaveText(money(185_050 + 9_990));
  await expect(figure(page, "day-net")).toHaveText(money(420_000 - 185_050 - 9_990));
  await expect(figure(page, "cash")).toHaveText(money(1_250_000));
  await expect(figure(page, "approvals")).toHaveText("1");
  await expect(page.getByTestId("brief-event").locator(".cell-strong")).toHaveText(["Website launch", "Contractors", "Cloud"]);
  const due = page.getByRole("region", { name: "Due in the next 7 days" });
  await expect(due.getByTestId("commitment").locator(".cell-strong")).toHaveText(["Office lease", "Design suite"]);
  for (const heading of ["Money in and out", "Cash and runway", "Alerts that day", "Waiting for you and agents", "Data coverage"])
    await expect(page.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  // Today has no day after it.
  await expect(page.getByTestId("brief-next")).toHaveAttribute("aria-disabled", "true");
  await expectNoSeriousViolations(page, "today's brief");
  await shot(page, "daily-brief-desktop");

  await page.setViewportSize(PHONE);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectNoSeriousViolations(page, "today's brief at 390 px");
  await shot(page, "daily-brief-390");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoSeriousViolations(page, "today's brief, dark");
  await shot(page, "daily-brief-390-dark");
  await page.setViewportSize(DESKTOP);
  await shot(page, "daily-brief-desktop-dark");
});

test("going back a day and forward again; the date picker", async ({ page, request }) => {
  const headline = ((await (await asBearer(request, token, "GET", "/v1/daily-brief")).json()) as TBrief).data.headline;
  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await page.goto("/brief");
  await expect(page.getByTestId("brief-headline")).toHaveText(headline);

  // The day before: this owner's books began today, so that day has no brief yet.
  const yesterday = addDays(today, -1);
  await page.getByTestId("brief-prev").click();
  await expect(page).toHaveURL(new RegExp(`/brief\\?date=${yesterday}$`));
  await expect(page.getByText("Your books had not started yet")).toBeVisible();
  await expect(page.getByTestId("brief-prev")).toHaveAttribute("href", `/brief?date=${addDays(today, -2)}`);
  await expect(page.getByLabel("Day", { exact: true })).toHaveValue(yesterday);
  await expectNoSeriousViolations(page, "a day before the books");
  await shot(page, "daily-brief-before-desktop");
  await page.getByTestId("brief-next").click();
  await expect(page).toHaveURL(/\/brief$/);
  await expect(page.getByTestId("brief-headline")).toHaveText(headline);

  // The date picker: a day that has not begun is not offered; today's is.
  await expect(page.getByLabel("Day", { exact: true })).toHaveAttribute("max", today);
  await page.getByLabel("Day", { exact: true }).fill(yesterday);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`/brief\\?date=${yesterday}$`));
  await page.goto(`/brief?date=${addDays(today, 1)}`);
  await expect(page.getByText(`${addDays(today, 1)} has not begun yet`)).toBeVisible();
  await expect(page.getByTestId("brief-headline")).toHaveText(headline);
});

test("a new owner's brief says what to do first", async ({ page, request }) => {
  const fresh = await apiSession(request, `brief-new-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  await page.setViewportSize(PHONE);
  await signIn(page, fresh);
  await page.goto("/brief");
  await expect(page.getByText("Nothing recorded on this day")).toBeVisible();
  await expect(page.getByText("No cash balance yet")).toBeVisible();
  await expect(page.getByText("Nothing due that week")).toBeVisible();
  await expect(page.getByText("No data sources yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Record revenue and expenses" })).toHaveAttribute("href", "/events");
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectNoSeriousViolations(page, "an empty brief");
  await shot(page, "daily-brief-empty-390");
});
