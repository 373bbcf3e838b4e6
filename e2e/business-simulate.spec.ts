// A business's "What if" tab in a real browser: the empty state says what a simulation does;
// Run with a cost left without an amount and no subscription chosen shows both errors at once;
// cancelling a subscription raises the simulated ending balance by exactly its charges in the
// window (the API's answer, shown in the table and the chart's table). axe finds no serious
// violation (light and dark, empty and with an answer), nothing is wider than a 390 px phone;
// screenshots (desktop, phone, dark) go to test-results/screenshots/.
import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type BrowserContextOptions } from "@playwright/test";
import { addDays, timeZoneOrUtc, todayIn } from "../lib/days";
import { formatMinor } from "../lib/money";
import {
  asBearer,
  E2E_OWNER_TOKEN,
  E2E_SOCIAL_ADS_SECRET,
  lightAndDarkPasses,
  seriousViolations,
  signIn,
  switchPass,
} from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const BUSINESS = `What If Studio ${randomUUID().slice(0, 6)}`;
const TOOL = "Design suite";
const TOOL_MINOR = 4_900;

let businessId = "";
let toolId = "";
let currency = "EUR";

test.beforeAll(async ({ request }) => {
  // The books in the owner's base currency, so the page shows the amounts as recorded.
  const me = (
    (await (await asBearer(request, E2E_OWNER_TOKEN, "GET", "/v1/me")).json()) as {
      data: { base_currency: string; timezone: string };
    }
  ).data;
  currency = me.base_currency;
  const today = todayIn(timeZoneOrUtc(me.timezone));
  const post = async (path: string, body: unknown) => {
    const response = await asBearer(request, E2E_OWNER_TOKEN, "POST", path, body);
    expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data;
  };
  businessId = (await post("/v1/businesses", { name: BUSINESS, currency })).id;
  await post("/v1/cash-snapshots", {
    business_id: businessId,
    amount_minor: 500_000,
    currency,
    as_of: new Date(Date.now() - 3_600_000).toISOString(),
    payload: { account_id: "what-if-main" },
  });
  // Monthly from three days on: one charge in the next 30 days.
  toolId = (
    await post("/v1/subscriptions", {
      business_id: businessId,
      name: TOOL,
      amount_minor: TOOL_MINOR,
      currency,
      billing_interval: "month",
      next_charge_on: addDays(today, 3),
    })
  ).id;
  // An ad account (a mock provider connection, active at once): its budget can be moved.
  await post(`/v1/integrations/social_ads/connect`, {
    business_id: businessId,
    account_id: `what-if-${randomUUID()}`,
    name: "Social ads",
    signing_secret: E2E_SOCIAL_ADS_SECRET,
  });
  await post("/v1/subscriptions", {
    business_id: businessId,
    name: "Hosting",
    amount_minor: 2_000,
    currency,
    billing_interval: "month",
    next_charge_on: addDays(today, 10),
  });
});

test("cancelling a subscription raises the simulated ending balance by its charges", async ({ page, request }) => {
  await signIn(page);
  await page.goto(`/businesses/${businessId}`);
  await page.getByRole("navigation", { name: "Business sections" }).getByRole("link", { name: "What if" }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${businessId}/simulate$`));
  await expect(page.getByRole("heading", { name: BUSINESS, level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "What if" })).toHaveAttribute("aria-current", "page");
  const form = page.getByRole("region", { name: "What if…" });
  await expect(form.getByRole("heading", { name: "No changes yet" })).toBeVisible();
  await expect(form).toContainText("runs this business's forecast twice");

  // Every error at once: a cost without an amount, a cancellation without its subscription.
  const adder = form.getByRole("group", { name: "Add a change" });
  await adder.getByRole("button", { name: "Add a cost" }).click();
  await adder.getByRole("button", { name: "Cancel a subscription" }).click();
  await form.getByRole("button", { name: "Run" }).click();
  const cost = form.getByRole("group", { name: "1. Add a cost" });
  const cancel = form.getByRole("group", { name: "2. Cancel a subscription" });
  await expect(cost.getByText("Enter an amount such as 12.34.")).toBeVisible();
  await expect(cancel.getByText("Pick the subscription to cancel.")).toBeVisible();
  await expect(cost.getByLabel("Amount")).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/business-simulate-errors.png`, fullPage: true });

  await cost.getByRole("button", { name: "Remove change 1" }).click();
  const only = form.getByRole("group", { name: "1. Cancel a subscription" });
  await only
    .getByLabel("Subscription")
    .selectOption({ label: `${TOOL} · ${formatMinor(TOOL_MINOR, currency, "en-US")} a month` });
  await form.getByRole("button", { name: "Run" }).click();

  // The API's own answer to the same request: the ending balance rises by the one charge.
  const answer = await asBearer(request, E2E_OWNER_TOKEN, "POST", "/v1/simulations", {
    business_id: businessId,
    horizon: 30,
    changes: [{ kind: "cancel_subscription", subscription_id: toolId }],
  });
  expect(answer.status()).toBe(200);
  const data = ((await answer.json()) as { data: any }).data;
  expect(data.delta.ending_balance_committed_minor).toBe(TOOL_MINOR);
  expect(data.simulated.ending_balance_committed_minor - data.baseline.ending_balance_committed_minor).toBe(TOOL_MINOR);

  const result = page.getByRole("region", { name: "Before and after" });
  const money = (minor: number) => formatMinor(minor, currency, "en-US");
  const ending = result.getByTestId("simulation-row-ending");
  await expect(ending).toContainText(money(data.baseline.ending_balance_committed_minor));
  await expect(ending).toContainText(money(data.simulated.ending_balance_committed_minor));
  await expect(ending).toContainText(`+${money(TOOL_MINOR)}`);
  await expect(result.getByTestId("simulation-row-free-capital")).toContainText(`+${money(TOOL_MINOR)}`);
  await expect(result.getByTestId("simulation-row-committed-out")).toContainText(`−${money(TOOL_MINOR)}`);
  await expect(result.getByTestId("simulation-chart")).toBeVisible();
  // The chart's table: the last day differs by the charge.
  await result.getByText("Every day's balance").click();
  const lastRow = result.getByTestId("simulation-table").locator("tbody tr").last();
  await expect(lastRow).toContainText(`+${money(TOOL_MINOR)}`);
  await page.screenshot({ path: `${SHOTS}/business-simulate-desktop.png`, fullPage: true });
});

async function simulatePage(browser: Browser, baseURL: string | undefined, options: BrowserContextOptions, run: boolean) {
  const context = await browser.newContext({ ...options, baseURL });
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`/businesses/${businessId}/simulate`);
  await expect(page.getByRole("heading", { name: BUSINESS, level: 1 })).toBeVisible();
  if (run) {
    const form = page.getByRole("region", { name: "What if…" });
    await form.getByRole("button", { name: "Cancel a subscription" }).click();
    await form.getByLabel("Subscription").selectOption({ index: 1 });
    await form.getByRole("button", { name: "Add revenue" }).click();
    await form.getByRole("group", { name: "2. Add revenue" }).getByLabel("Amount").fill("120");
    await form.getByRole("button", { name: "Change an ad budget" }).click();
    await form.getByRole("group", { name: "3. Change an ad budget" }).getByLabel("Per day").fill("15");
    await form.getByRole("button", { name: "90 days" }).click();
    await form.getByRole("button", { name: "Run" }).click();
    await expect(page.getByTestId("simulation-chart")).toBeVisible();
  }
  await page.waitForLoadState("networkidle");
  return page;
}

test("the What if tab passes axe in light and dark and fits a 390 px phone, empty and with an answer", async ({
  browser,
  baseURL,
}) => {
  for (const run of [false, true]) {
    // One page for the four passes of each state: the scheme and the viewport switch on it (switchPass).
    const page = await simulatePage(browser, baseURL, { colorScheme: "light", viewport: DESKTOP }, run);
    for (const [colorScheme, size, viewport] of lightAndDarkPasses(DESKTOP, PHONE)) {
      await switchPass(page, colorScheme, viewport);
      const where = `what if (${run ? "answered" : "empty"}, ${size}, ${colorScheme})`;
      expect.soft(await seriousViolations(page), `axe on ${where}`).toEqual([]);
      if (size === "phone") {
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${where} fits the screen` })
          .toBeLessThanOrEqual(PHONE.width);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({
        path: `${SHOTS}/business-simulate-${run ? "answered" : "empty"}-${size}-${colorScheme}.png`,
        fullPage: true,
      });
    }
    await page.context().close();
  }
});
