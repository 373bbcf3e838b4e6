// A business's Ads tab in a real browser. A NEW owner (an API session through the mailed link)
// connects a generic webhook and sends it, signed, two ad accounts' daily ad_spend (campaigns,
// impressions, clicks, one day in GBP) and three advertising signals; the tab shows exactly the
// API's figures (GET /v1/businesses/{id}/ads): totals, each account with its daily spend and its
// campaigns, the signals with their severity in words; another period and another display
// currency; a refused period on its field; a business without ads says what to do next. axe
// finds no serious violation; screenshots on a desktop, at 390 px and in dark mode go to
// test-results/screenshots/.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { formatCount, formatRatioPercent } from "../components/ads/ads-words";
import { addDays, todayIn } from "../lib/days";
import { formatMinor } from "../lib/money";
import { apiSession, asBearer, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });
// Three axe runs and four full-page screenshots in one test: slow on a busy machine.
test.setTimeout(120_000);

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

type TAds = {
  data: {
    currency: string;
    from: string;
    to: string;
    totals: { spend_minor: number; impressions: number; clicks: number; ctr: number | null; cpc_minor: number | null };
    accounts: Array<{
      account_id: string;
      spend_minor: number;
      daily: { date: string; spend_minor: number }[];
      campaigns: { campaign_id: string; spend_minor: number }[];
      signals: { code: string; severity: string }[];
    }>;
  };
};

let token = "";
let locale = "en-US";
let today = "";
let shop = "";
let empty = "";

async function get<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await asBearer(request, token, "GET", path);
  expect(response.status(), `GET ${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

async function post<T>(request: APIRequestContext, path: string, body: unknown): Promise<T> {
  const response = await asBearer(request, token, "POST", path, body);
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
  return ((await response.json()) as { data: T }).data;
}

/** A generic webhook delivery, signed as the integration's relay signs it. */
async function deliver(request: APIRequestContext, hook: { webhook_url: string; secret: string }, payload: unknown) {
  const body = JSON.stringify(payload);
  const response = await request.post(hook.webhook_url, {
    headers: {
      "Content-Type": "application/json",
      "X-Service-Signature": `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`,
      "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
    },
    data: body,
  });
  const text = await response.text();
  expect(response.status(), text).toBe(200);
  expect((JSON.parse(text) as { data: { rejected: unknown[] } }).data.rejected).toEqual([]);
}

async function expectFitsThePhone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

function figure(scope: Page | Locator, id: string): Locator {
  return scope.getByTestId(`figure-${id}`).getByTestId("figure-value");
}

/** The tab shows the answer's totals, accounts, campaigns, days and signals. */
async function expectTheApisFigures(page: Page, ads: TAds["data"]): Promise<void> {
  const money = (minor: number | null) => formatMinor(minor, ads.currency, locale);
  await expect(figure(page, "ad-spend")).toHaveText(money(ads.totals.spend_minor));
  await expect(figure(page, "ad-impressions")).toHaveText(formatCount(ads.totals.impressions, locale));
  await expect(figure(page, "ad-clicks")).toHaveText(formatCount(ads.totals.clicks, locale));
  await expect(figure(page, "ad-ctr")).toHaveText(formatRatioPercent(ads.totals.ctr, locale));
  await expect(figure(page, "ad-cpc")).toHaveText(money(ads.totals.cpc_minor));
  const cards = page.getByTestId("ad-account");
  await expect(cards).toHaveCount(ads.accounts.length);
  for (const [index, account] of ads.accounts.entries()) {
    const card = cards.nth(index);
    await expect(card).toHaveAttribute("data-account", account.account_id);
    await expect(figure(card, "account-spend")).toHaveText(money(account.spend_minor));
    await expect(card.getByTestId("ad-campaign")).toHaveCount(account.campaigns.length);
    for (const campaign of account.campaigns)
      await expect(card.locator(`tr[data-campaign="${campaign.campaign_id}"]`).getByTestId("campaign-spend")).toHaveText(
        money(campaign.spend_minor),
      );
    const days = card.getByTestId("daily-table").locator("tbody tr");
    await expect(days).toHaveCount(account.daily.length);
    for (const day of account.daily.filter((d) => d.spend_minor !== 0))
      await expect(card.locator(`tr[data-date="${day.date}"]`).getByTestId("day-spend")).toHaveText(money(day.spend_minor));
  }
  await expect(page.getByTestId("ad-signal")).toHaveCount(ads.accounts.reduce((n, a) => n + a.signals.length, 0));
}

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `ads-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  const me = await get<{ data: { timezone: string; locale: string } }>(request, "/v1/me");
  locale = me.data.locale;
  today = todayIn(me.data.timezone);
  shop = (await post<{ id: string }>(request, "/v1/businesses", { name: "Adwise Shop", currency: "EUR" })).id;
  empty = (await post<{ id: string }>(request, "/v1/businesses", { name: "Quiet Studio", currency: "EUR" })).id;
  const hook = await post<{ webhook_url: string; secret: string }>(request, "/v1/integrations/generic/connect", {
    business_id: shop,
    name: "Ads relay",
  });
  // [account, platform, campaign, days before today, amount, currency, impressions, clicks]
  const rows: Array<[string, string, string, number, number, string, number, number]> = [
    ["act_spring", "social_ads", "spring_sale", 1, 12_500, "EUR", 40_000, 900],
    ["act_spring", "social_ads", "spring_sale", 3, 9_800, "EUR", 31_000, 610],
    ["act_spring", "social_ads", "brand", 3, 4_250, "EUR", 12_000, 95],
    ["act_spring", "social_ads", "brand", 40, 7_000, "EUR", 20_000, 100],
    ["cust_search", "search_ads", "keywords", 2, 6_000, "GBP", 5_000, 240],
    ["cust_search", "search_ads", "keywords", 6, 3_300, "EUR", 2_600, 130],
  ];
  await deliver(request, hook, {
    events: rows.map(([account, platform, campaign, ago, amount, currency, impressions, clicks], n) => ({
      external_id: `ads-${n}`,
      type: "ad_spend",
      state: "actual",
      amount_minor: amount,
      currency,
      occurred_on: addDays(today, -ago),
      payload: { platform, account_id: account, campaign_id: campaign, metrics: { impressions, clicks } },
    })),
    signals: [
      {
        external_id: "sig-paused",
        code: "campaign_paused",
        occurred_at: `${addDays(today, -1)}T09:30:00Z`,
        ref: { account_id: "act_spring", campaign_id: "brand" },
      },
      {
        external_id: "sig-limited",
        code: "budget_limited",
        occurred_at: `${addDays(today, -2)}T14:00:00Z`,
        ref: { account_id: "act_spring", campaign_id: "spring_sale" },
        message: "Spring sale hit its daily budget at 14:00.",
      },
      {
        external_id: "sig-suspended",
        code: "account_suspended",
        occurred_at: `${addDays(today, -4)}T08:00:00Z`,
        ref: { account_id: "cust_search" },
      },
    ],
  });
});

test("the Ads tab shows the API's accounts, campaigns, days and signals", async ({ page, request }) => {
  await signIn(page, token);
  await page.goto(`/businesses/${shop}`);
  const tabs = page.getByRole("navigation", { name: "Business sections" });
  await tabs.getByRole("link", { name: "Ads" }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${shop}/ads$`));
  await expect(page.getByRole("heading", { name: "Adwise Shop", level: 1 })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Ads" })).toHaveAttribute("aria-current", "page");

  const ads = (await get<TAds>(request, `/v1/businesses/${shop}/ads`)).data;
  expect(ads.accounts.map((a) => a.account_id)).toEqual(["act_spring", "cust_search"]);
  expect(ads.accounts[0]!.daily).toHaveLength(30);
  await expectTheApisFigures(page, ads);

  // Severity in words, with the platform's message or the code's words.
  const signals = page.getByTestId("ad-signal");
  await expect(signals.nth(0)).toContainText("Warning");
  await expect(signals.nth(0)).toContainText("An ad campaign was paused.");
  await expect(signals.nth(1)).toContainText("Spring sale hit its daily budget at 14:00.");
  await expect(page.locator('tr[data-code="account_suspended"]')).toContainText("Critical");
  await expect(page.locator('tr[data-code="account_suspended"]')).toContainText("Search Ads · cust_search");
  // The chart has a text alternative: a summary, and every day's exact figure.
  await expect(
    page
      .getByTestId("daily-spend-chart")
      .first()
      .getByRole("img", { name: /^Bar chart\. Daily spend of Social Ads/ }),
  ).toBeVisible();

  await expectNoSeriousViolations(page, "the Ads tab");
  await shot(page, "business-ads-desktop");
  await page.setViewportSize(PHONE);
  await expectFitsThePhone(page);
  await expectNoSeriousViolations(page, "the Ads tab at 390 px");
  await shot(page, "business-ads-390");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoSeriousViolations(page, "the Ads tab at 390 px in dark mode");
  await shot(page, "business-ads-390-dark");
  await page.setViewportSize(DESKTOP);
  await shot(page, "business-ads-desktop-dark");
});

test("another period and another display currency show the API's figures for them", async ({ page, request }) => {
  await signIn(page, token);
  await page.goto(`/businesses/${shop}/ads`);
  const from = addDays(today, -45);
  const to = addDays(today, -2);
  const period = page.getByRole("form", { name: "Period" });
  await period.getByLabel("From").fill(from);
  await period.getByLabel("To").fill(to);
  await period.getByRole("button", { name: "Show period" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${from}&to=${to}`));
  const older = (await get<TAds>(request, `/v1/businesses/${shop}/ads?from=${from}&to=${to}`)).data;
  expect(older.accounts[0]!.daily).toHaveLength(44);
  await expectTheApisFigures(page, older);

  await page.getByLabel("Show amounts in").selectOption("USD");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/display_currency=USD/);
  await expect(page).toHaveURL(new RegExp(`from=${from}`));
  const inUsd = (await get<TAds>(request, `/v1/businesses/${shop}/ads?from=${from}&to=${to}&display_currency=USD`)).data;
  expect(inUsd.currency).toBe("USD");
  await expectTheApisFigures(page, inUsd);
});

test("a refused period is named on its field; the default period is shown meanwhile", async ({ page }) => {
  await signIn(page, token);
  await page.goto(`/businesses/${shop}/ads?from=${addDays(today, -1)}&to=${addDays(today, -5)}`);
  const period = page.getByRole("form", { name: "Period" });
  await expect(period.getByLabel("From")).toHaveAttribute("aria-invalid", "true");
  await expect(period.getByRole("alert")).toContainText("Must not be after to");
  await expect(period.getByLabel("From")).toHaveValue(addDays(today, -1));
  await expect(page.getByTestId("ad-account")).toHaveCount(2);
  await expectNoSeriousViolations(page, "a refused period");
  await shot(page, "business-ads-refused-period");
});

test("a business without ads says what to do next", async ({ page }) => {
  await signIn(page, token);
  await page.goto(`/businesses/${empty}/ads`);
  await expect(page.getByRole("heading", { name: "No ad spend in this period" })).toBeVisible();
  await expect(page.getByText("Connect social_ads or search_ads, or send ad_spend events.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Integrations" })).toHaveAttribute("href", "/integrations");
  await expect(figure(page, "ad-ctr")).toHaveText("—");
  await page.setViewportSize(PHONE);
  await expectFitsThePhone(page);
  await expectNoSeriousViolations(page, "the empty Ads tab at 390 px");
  await shot(page, "business-ads-empty-390");
});
