// An agent's passport on its page (issue 18): the empty state while it was never set, the form
// showing every problem at once (nothing saved), a saved passport; a template applied, its
// suggested grants shown and accepted one by one through the grants operation (the template
// itself grants nothing); and the agent's limits used today and this month after a real counted
// write. axe finds no serious violation (light and dark), and the page fits a 390 px phone.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { formatMinor } from "../lib/money";
import {
  asBearer,
  E2E_OWNER_TOKEN,
  E2E_SOCIAL_ADS_SECRET,
  lightAndDarkPasses,
  reportCampaignBudgets,
  seriousViolations,
  signIn,
  switchPass,
} from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const BUSINESS = `Passport Studio ${randomUUID().slice(0, 6)}`;
const AGENT = `Passport agent ${randomUUID().slice(0, 6)}`;

let agent: { id: string; token: string };

async function data<T>(response: Awaited<ReturnType<APIRequestContext["fetch"]>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

const passportCard = (page: Page) => page.getByRole("region", { name: "Passport" });

async function openAgent(page: Page) {
  await signIn(page);
  await page.goto(`/agents/${agent.id}`);
  await expect(page.getByRole("heading", { name: AGENT, level: 1 })).toBeVisible();
}

test.beforeAll(async ({ request }) => {
  const owner = (method: "GET" | "POST", path: string, body?: unknown) => asBearer(request, E2E_OWNER_TOKEN, method, path, body);
  const business = await data<{ id: string }>(await owner("POST", "/v1/businesses", { name: BUSINESS, currency: "EUR" }), 201);
  const adAccount = `act_${randomUUID()}`;
  const integration = await data<{ id: string }>(
    await owner("POST", "/v1/integrations/social_ads/connect", {
      business_id: business.id,
      account_id: adAccount,
      signing_secret: E2E_SOCIAL_ADS_SECRET,
    }),
    201,
  );
  agent = await data(
    await owner("POST", "/v1/agents", {
      name: AGENT,
      grants: [
        {
          scope: "ads",
          resource: `business:${business.id}`,
          level: "execute",
          daily_limit_minor: 50_00,
          monthly_limit_minor: 500_00,
          currency: "EUR",
        },
      ],
    }),
    201,
  );
  // A real counted write: raising a daily budget the platform reported at 50.00 to 62.00 counts
  // 12.00 against both limits.
  const campaign = `spring-${randomUUID().slice(0, 8)}`;
  await reportCampaignBudgets(request, adAccount, [{ campaign_id: campaign, daily_budget_minor: 50_00, currency: "EUR" }]);
  await data(
    await asBearer(request, agent.token, "POST", "/v1/ad-budget-changes", {
      integration_id: integration.id,
      campaign_id: campaign,
      previous_daily_budget_minor: 50_00,
      new_daily_budget_minor: 62_00,
      currency: "EUR",
      reason: "ROAS above target",
    }),
    201,
  );
});

test("an empty passport, the form's errors all at once, then a saved passport; the limits used", async ({ page, request }) => {
  await openAgent(page);
  const card = passportCard(page);
  await expect(card.getByRole("heading", { name: "No passport yet" })).toBeVisible();
  await expect(card).toContainText("start from a template");
  await card.screenshot({ path: `${SHOTS}/agent-passport-empty.png` });

  // Limits used today and this month, from the write above.
  const limits = page.getByRole("region", { name: "Limits used" });
  const row = limits.getByRole("listitem", { name: `Ads on ${BUSINESS}` });
  await expect(row).toContainText(`${formatMinor(12_00, "EUR")} of ${formatMinor(50_00, "EUR")} used`);
  await expect(row).toContainText(`${formatMinor(38_00, "EUR")} left`);
  await expect(row).toContainText(`${formatMinor(488_00, "EUR")} left`);

  // Every problem at once, and nothing saved.
  await card.getByRole("button", { name: "Write passport" }).click();
  const form = card.getByRole("form", { name: "Edit passport" });
  await form.getByLabel("Purpose").fill("p".repeat(501));
  await form.getByLabel("Responsibilities").fill(Array.from({ length: 21 }, (_, i) => `Duty ${i + 1}`).join("\n"));
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByLabel("Daily spend").fill("12.345");
  await form.getByRole("button", { name: "Save passport" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "nothing was saved" })).toBeVisible();
  await expect(form.locator('[aria-invalid="true"]')).toHaveCount(3);
  await expect(form).toContainText("At most 500 characters: this has 501.");
  await expect(form).toContainText("At most 20 responsibilities: there are 21.");
  await expect(form).toContainText("EUR has 2 decimals");
  await page.screenshot({ path: `${SHOTS}/agent-passport-errors.png`, fullPage: true });
  const unsaved = await data<{ version: number }>(
    await asBearer(request, E2E_OWNER_TOKEN, "GET", `/v1/agents/${agent.id}/passport`),
    200,
  );
  expect(unsaved.version).toBe(0);

  await form.getByLabel("Purpose").fill("Keep the spring ad spend profitable.");
  await form.getByLabel("Responsibilities").fill("Watch ROAS every morning\nCut campaigns that do not pay back");
  await form.getByLabel("Allowed actions").fill("Change daily budgets");
  await form.getByLabel("Daily spend").fill("40");
  await form.getByLabel(BUSINESS).check();
  await form.getByLabel("Escalation").fill("Email me before going over 40 EUR a day.");
  await form.getByRole("button", { name: "Save passport" }).click();
  await expect(card.getByRole("status")).toHaveText("Passport saved (version 1).");
  await expect(card).toContainText("Keep the spring ad spend profitable.");
  await expect(card).toContainText(`At most ${formatMinor(40_00, "EUR")} a day`);
  await expect(card.getByText("Version 1", { exact: true })).toBeVisible();
});

test("a template fills the passport; its suggested grants are accepted one by one", async ({ page, request }) => {
  await openAgent(page);
  const card = passportCard(page);
  await card.getByRole("button", { name: "Apply a template" }).click();
  const picker = card.getByRole("form", { name: "Apply a template" });
  await picker.getByRole("radio", { name: /Ad-spend optimiser/ }).check();
  await expect(picker.getByLabel(/Keep this passport's constraints/)).toBeChecked();
  await picker.getByRole("button", { name: "Apply template" }).click();
  await expect(card.getByRole("status")).toHaveText("Passport filled from “Ad-spend optimiser” (version 2).");
  await expect(card).toContainText("Get more revenue from the ad budget");

  const suggested = page.getByRole("region", { name: "Suggested grants" });
  const ads = suggested.getByRole("listitem", { name: "Ads · Execute" });
  const observe = suggested.getByRole("listitem", { name: "Finances: observe · Recommend" });
  // The execute grant carries the passport's declared daily spend as its limit.
  await expect(ads).toContainText(`Limit ${formatMinor(40_00, "EUR")} a day`);
  await expect(observe.getByLabel("Where")).toHaveValue(/^business:/);

  // Applying granted nothing.
  const grantsOf = async () =>
    (await data<{ grants: { scope: string }[] }>(await asBearer(request, E2E_OWNER_TOKEN, "GET", `/v1/agents/${agent.id}`), 200))
      .grants;
  expect((await grantsOf()).map((grant) => grant.scope)).toEqual(["ads"]);

  await observe.getByRole("button", { name: "Accept Finances: observe" }).click();
  await expect(observe.getByText("Granted")).toBeVisible();
  await expect(ads.getByRole("button", { name: "Accept Ads" })).toBeVisible();
  expect((await grantsOf()).map((grant) => grant.scope)).toEqual(["ads", "finances:observe"]);
  // The grants form starts again from the agent's grants, the accepted one included.
  await expect(page.getByRole("group", { name: "Grant 2" })).toBeVisible();

  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/agent-passport-suggested.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: `${SHOTS}/agent-passport-suggested-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);

  await ads.getByRole("button", { name: "Accept Ads" }).click();
  await expect(ads.getByText("Granted")).toBeVisible();
  expect((await grantsOf()).map((grant) => grant.scope)).toEqual(["ads", "finances:observe", "ads"]);
});

async function agentPage(browser: Browser, baseURL: string | undefined, colorScheme: "light" | "dark", viewport: typeof PHONE) {
  const context = await browser.newContext({ baseURL, colorScheme, viewport });
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`/agents/${agent.id}`);
  await expect(passportCard(page).getByText("Get more revenue from the ad budget")).toBeVisible();
  return page;
}

test("the agent page with its passport passes axe in light and dark and fits a 390 px phone", async ({ browser, baseURL }) => {
  // One page for the four passes: the scheme and the viewport switch on it (switchPass).
  const page = await agentPage(browser, baseURL, "light", DESKTOP);
  for (const [colorScheme, size, viewport] of lightAndDarkPasses(DESKTOP, PHONE)) {
    await switchPass(page, colorScheme, viewport);
    const where = `agent passport (${size}, ${colorScheme})`;
    expect.soft(await seriousViolations(page), where).toEqual([]);
    if (size === "phone") {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(width, `${where} is no wider than the screen`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.screenshot({ path: `${SHOTS}/agent-passport-${size}-${colorScheme}.png`, fullPage: true });
  }
  await page.context().close();
});
