// A business's SaaS tab in a real browser. A NEW owner (an API session through the mailed link)
// connects a generic webhook and sends it signed subscription_change events and billing signals,
// as an outside billing system would; the tab then shows the API's MRR, ARR, movements by month,
// churn, NRR, ARPA and the latest movements, over the presets and a period of one's own, in the
// base currency and another; a business without subscription data says what to do. axe finds no
// serious violation; 390 px fits; screenshots (desktop, phone, dark) go to test-results/screenshots/.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { formatCalendarDay } from "../components/overview/figures";
import { formatMonth, formatRatio } from "../components/saas/saas-words";
import { addDays, todayIn } from "../lib/days";
import { formatMinor } from "../lib/money";
import type { TSaasMetrics } from "../server/read-models/saas-metrics.schema";
import { apiSession, asBearer, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

function owner(request: APIRequestContext, token: string) {
  return {
    async get<T>(path: string): Promise<T> {
      const response = await asBearer(request, token, "GET", path);
      expect(response.status(), `GET ${path}: ${await response.text()}`).toBe(200);
      return (await response.json()) as T;
    },
    async post<T>(path: string, body: unknown): Promise<T> {
      const response = await asBearer(request, token, "POST", path, body);
      expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
      return (await response.json()) as T;
    },
  };
}

/** Nothing wider than the phone (polled: the chart takes its width from a ResizeObserver). */
async function expectFitsThePhone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

function figure(page: Page, id: string): Locator {
  return page.getByTestId(`figure-${id}`).getByTestId("figure-value");
}

test.describe("a SaaS business fed by a signed webhook", () => {
  let token = "";
  let businessId = "";
  let emptyId = "";
  let locale = "en-US";
  let currency = "EUR";

  test.beforeAll(async ({ request }) => {
    token = await apiSession(request, `saas-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
    const api = owner(request, token);
    const me = (await api.get<{ data: { timezone: string; locale: string; base_currency: string } }>("/v1/me")).data;
    locale = me.locale;
    currency = me.base_currency;
    const today = todayIn(me.timezone);
    businessId = (await api.post<{ data: { id: string } }>("/v1/businesses", { name: "Orbit Cloud", currency })).data.id;
    emptyId = (await api.post<{ data: { id: string } }>("/v1/businesses", { name: "Quiet Shop", currency })).data.id;
    const hook = (
      await api.post<{ data: { integration_id: string; secret: string } }>("/v1/integrations/generic/connect", {
        business_id: businessId,
        name: "Billing relay",
      })
    ).data;

    // [days from today, subscription, customer, change, delta, mrr after, plan]
    const changes: Array<[number, string, string, string, number, number, string]> = [
      [-120, "sub_acme", "acme", "new", 10_000, 10_000, "Scale"],
      [-100, "sub_beta", "beta", "new", 5_000, 5_000, "Team"],
      [-95, "sub_cobalt", "cobalt", "new", 2_500, 2_500, "Starter"],
      [-60, "sub_acme", "acme", "expansion", 5_000, 15_000, "Scale+"],
      [-40, "sub_beta", "beta", "contraction", -2_000, 3_000, "Starter"],
      [-20, "sub_cobalt", "cobalt", "churned", -2_500, 0, "Starter"],
      [-5, "sub_delta", "delta", "new", 4_000, 4_000, "Team"],
    ];
    const noon = (days: number) => `${addDays(today, days)}T12:00:00Z`;
    const body = JSON.stringify({
      events: changes.map(([days, subscription_id, customer_id, change, delta, mrr_minor, plan], i) => ({
        integration_id: hook.integration_id,
        external_id: `saas-${i}`,
        type: "subscription_change",
        state: "actual",
        amount_minor: delta,
        currency,
        occurred_on: addDays(today, days),
        source_type: "IMPORT",
        payload: { subscription_id, customer_id, change, mrr_minor, plan },
      })),
      signals: [
        { external_id: "sig-1", code: "payment_failed", occurred_at: noon(-10) },
        { external_id: "sig-2", code: "subscription_churned", occurred_at: noon(-20) },
      ],
    });
    const delivered = await request.post(`/v1/webhooks/generic/${hook.integration_id}`, {
      headers: {
        "Content-Type": "application/json",
        "X-Service-Signature": `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`,
        "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
      },
      data: body,
    });
    expect(delivered.status(), await delivered.text()).toBe(200);
    const answer = (await delivered.json()) as { data?: Record<string, unknown> } & Record<string, unknown>;
    expect(answer.data ?? answer).toMatchObject({ inserted: 7, rejected: [], signals_accepted: 2 });
  });

  test("the SaaS tab shows the API's figures, over 30 and 90 days, with the movement by month", async ({ page, request }) => {
    const api = owner(request, token);
    const money = (minor: number | null, c = currency) => formatMinor(minor, c, locale);
    await signIn(page, token);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/businesses/${businessId}`);
    const tabs = page.getByRole("navigation", { name: "Business sections" });
    await tabs.getByRole("link", { name: "SaaS" }).click();
    await expect(page).toHaveURL(new RegExp(`/businesses/${businessId}/saas$`));
    await expect(page.getByRole("heading", { name: "Orbit Cloud", level: 1 })).toBeVisible();
    await expect(tabs.getByRole("link", { name: "SaaS" })).toHaveAttribute("aria-current", "page");

    // The last 30 days (default): acme 15,000, beta 3,000, cobalt 2,500 at the start; cobalt churns, delta is new.
    const last30 = (await api.get<{ data: TSaasMetrics }>(`/v1/businesses/${businessId}/saas-metrics`)).data;
    expect(last30).toMatchObject({ mrr_start_minor: 20_500, mrr_end_minor: 22_000 });
    await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("period-shown")).toHaveText(
      `${formatCalendarDay(last30.from, locale)} to ${formatCalendarDay(last30.to, locale)}`,
    );
    await expect(figure(page, "mrr")).toHaveText(money(22_000));
    await expect(figure(page, "net-new")).toHaveText(money(1_500));

    // The last 90 days: every figure as computed by hand, and as the API says.
    await page.getByRole("link", { name: "Last 90 days" }).click();
    await expect(page).toHaveURL(/\?period=90d$/);
    const m = (await api.get<{ data: TSaasMetrics }>(`/v1/businesses/${businessId}/saas-metrics?from=${addDays(last30.to, -89)}`))
      .data;
    expect(m).toMatchObject({
      mrr_start_minor: 17_500,
      mrr_end_minor: 22_000,
      arr_minor: 264_000,
      arpa_minor: 7_333,
      movements_summary: { new_minor: 4_000, expansion_minor: 5_000, contraction_minor: 2_000, churned_minor: 2_500 },
      customers: { active_start: 3, active_end: 3, new: 1, churned: 1 },
      rates: { customer_churn_rate: 0.3333, gross_mrr_churn_rate: 0.2571, net_mrr_retention: 1.0286 },
      signals: { payment_failed: 1, subscription_churned: 1, subscription_past_due: 0 },
      movements_total: 4,
    });
    await expect(figure(page, "mrr")).toHaveText(money(m.mrr_end_minor));
    await expect(figure(page, "arr")).toHaveText(money(m.arr_minor));
    await expect(figure(page, "net-new")).toHaveText(money(m.movements_summary.net_new_minor));
    await expect(figure(page, "customers")).toHaveText("3");
    await expect(page.getByTestId("figure-customers")).toContainText("1 new, 1 churned; 3 at the start");
    await expect(figure(page, "arpa")).toHaveText(money(m.arpa_minor));
    await expect(figure(page, "customer-churn")).toHaveText(formatRatio(0.3333, locale));
    await expect(figure(page, "gross-mrr-churn")).toHaveText(formatRatio(0.2571, locale));
    await expect(figure(page, "net-retention")).toHaveText(formatRatio(1.0286, locale));
    await expect(page.getByTestId("figure-net-retention")).toContainText("upgrades included");
    await expect(figure(page, "signals")).toHaveText("2");

    // The movement by month: the chart, and its table with every month's exact figures.
    const chart = page.getByTestId("mrr-movement-chart");
    await expect(chart.getByRole("img", { name: /^Bar chart\. MRR movement by month/ })).toBeVisible();
    const rows = page.getByTestId("mrr-movement-table").locator("tbody tr");
    await expect(rows).toHaveCount(m.by_month.length);
    for (const month of m.by_month) {
      const row = rows.and(page.locator(`[data-month="${month.month}"]`));
      await expect(row.getByRole("rowheader")).toHaveText(formatMonth(month.month, locale));
      await expect(row.getByTestId("new")).toHaveText(money(month.new_minor));
      await expect(row.getByTestId("churned")).toHaveText(money(month.churned_minor));
      await expect(row.getByTestId("net-new")).toHaveText(money(month.net_new_minor));
      await expect(row.getByTestId("mrr-end")).toHaveText(money(month.mrr_end_minor));
    }
    expect(m.by_month.at(-1)!.mrr_end_minor).toBe(22_000);

    // The latest movements, newest first, in their own currency.
    const movements = page.getByRole("region", { name: "Latest movements", exact: true }).locator("tbody tr");
    await expect(movements).toHaveCount(4);
    await expect(movements.first()).toHaveAttribute("data-change", "new");
    await expect(movements.first()).toContainText("delta");
    await expect(movements.first()).toContainText(money(4_000));
    await expect(movements.nth(1)).toHaveAttribute("data-change", "churned");

    await expectNoSeriousViolations(page, "the SaaS tab");
    await shot(page, "business-saas-desktop");

    await page.setViewportSize(PHONE);
    await expect(figure(page, "mrr")).toBeVisible();
    await expectFitsThePhone(page);
    await expectNoSeriousViolations(page, "the SaaS tab at 390 px");
    await shot(page, "business-saas-390");

    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize(DESKTOP);
    await expectNoSeriousViolations(page, "the SaaS tab, dark");
    await shot(page, "business-saas-desktop-dark");
    await page.setViewportSize(PHONE);
    await expectFitsThePhone(page);
    await shot(page, "business-saas-390-dark");
  });

  test("12 months, a period of one's own (refused when to is before from), and another display currency", async ({
    page,
    request,
  }) => {
    const api = owner(request, token);
    await signIn(page, token);
    await page.goto(`/businesses/${businessId}/saas?period=12m`);
    await expect(page.getByRole("link", { name: "Last 12 months" })).toHaveAttribute("aria-current", "true");
    // Twelve calendar months: every one in the chart's table, the oldest with acme's first 10,000.
    const rows = page.getByTestId("mrr-movement-table").locator("tbody tr");
    await expect(rows).toHaveCount(12);
    await expect(figure(page, "mrr")).toHaveText(formatMinor(22_000, currency, locale));

    const form = page.getByRole("form", { name: "Period of your own" });
    const today = (await api.get<{ data: TSaasMetrics }>(`/v1/businesses/${businessId}/saas-metrics`)).data.to;
    await form.getByLabel("From").fill(addDays(today, -45));
    await form.getByLabel("To").fill(addDays(today, -30));
    await form.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(new RegExp(`from=${addDays(today, -45)}&to=${addDays(today, -30)}`));
    // Only beta's contraction (day −40) in it.
    await expect(figure(page, "net-new")).toHaveText(formatMinor(-2_000, currency, locale));
    await expect(page.getByRole("link", { name: "Last 30 days" })).not.toHaveAttribute("aria-current", "true");

    await page.goto(`/businesses/${businessId}/saas?from=${today}&to=${addDays(today, -10)}`);
    await expect(page.getByRole("alert").filter({ hasText: "That period cannot be shown" })).toContainText(
      "That period cannot be shown (from: must not be after to",
    );
    await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");

    await page.goto(`/businesses/${businessId}/saas?period=90d`);
    const other = currency === "USD" ? "EUR" : "USD";
    await page.getByLabel("Show amounts in").selectOption(other);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`period=90d&display_currency=${other}`));
    const shown = (
      await api.get<{ data: TSaasMetrics }>(
        `/v1/businesses/${businessId}/saas-metrics?from=${addDays(today, -89)}&display_currency=${other}`,
      )
    ).data;
    expect(shown.currency).toBe(other);
    await expect(figure(page, "mrr")).toHaveText(formatMinor(shown.mrr_end_minor, other, locale));
    await expect(figure(page, "arr")).toHaveText(formatMinor(shown.arr_minor, other, locale));
    await expect(page.getByRole("link", { name: "Last 90 days" })).toHaveAttribute("aria-current", "true");
  });

  test("a business without subscription data says where the data comes from", async ({ page }) => {
    await signIn(page, token);
    await page.setViewportSize(PHONE);
    await page.goto(`/businesses/${emptyId}/saas`);
    await expect(page.getByRole("heading", { name: "No subscription data yet" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Connect a billing integration" })).toHaveAttribute("href", "/integrations");
    await expect(page.getByText("subscription_change", { exact: true })).toBeVisible();
    await expectFitsThePhone(page);
    await expectNoSeriousViolations(page, "the empty SaaS tab");
    await shot(page, "business-saas-empty-390");
  });
});
