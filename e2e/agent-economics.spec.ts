// An agent's economics (issue 18): the agent makes two ad budget changes within its grant and
// records a decision the ledger proves better than expected, all over REST with its own token;
// its page's Economics card shows the spend approved, the daily budget added, the result of its
// decisions and the return, per period; the Agents list shows each agent's spend and result this
// month from one call; an agent that did nothing says how figures get there. axe finds no
// serious violation, and both pages fit a 390 px phone.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { addDays } from "../lib/days";
import { formatMinor } from "../lib/money";
import {
  asBearer,
  E2E_OWNER_TOKEN,
  E2E_SOCIAL_ADS_SECRET,
  expectNoSeriousViolations,
  reportCampaignBudgets,
  signIn,
} from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };

/** The owner's base currency (another spec may have changed it): every amount here is in it. */
let CURRENCY: string;
let agent: { id: string; name: string; token: string };
let quiet: { id: string; name: string };
/** The decision's day: 8 days ago, so its 7-day window has closed. */
let decidedOn: string;
let today: string;

async function data<T>(response: Awaited<ReturnType<APIRequestContext["fetch"]>>, status = 201): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

async function expectFitsPhone(page: Page, label: string): Promise<void> {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} at 390 px`).toBeLessThanOrEqual(PHONE.width);
}

const money = (minor: number) => formatMinor(minor, CURRENCY);

test.beforeAll(async ({ request }) => {
  const owner = (method: "GET" | "POST", path: string, body?: unknown) => asBearer(request, E2E_OWNER_TOKEN, method, path, body);
  const me = await data<{ base_currency: string }>(await owner("GET", "/v1/me"), 200);
  CURRENCY = me.base_currency;
  today = new Date().toISOString().slice(0, 10); // the static owner's time zone is UTC
  decidedOn = addDays(today, -8);
  const suffix = randomUUID().slice(0, 6);
  const business = await data<{ id: string }>(
    await owner("POST", "/v1/businesses", { name: `Economics Lab ${suffix}`, currency: CURRENCY }),
  );
  const adAccount = `act_${randomUUID()}`;
  const integration = await data<{ id: string }>(
    await owner("POST", "/v1/integrations/social_ads/connect", {
      business_id: business.id,
      account_id: adAccount,
      signing_secret: E2E_SOCIAL_ADS_SECRET,
    }),
  );
  const name = `Spend agent ${suffix}`;
  agent = {
    name,
    ...(await data<{ id: string; token: string }>(
      await owner("POST", "/v1/agents", {
        name,
        grants: [{ scope: "ads", resource: `business:${business.id}`, level: "execute" }],
      }),
    )),
  };
  const quietName = `Idle agent ${suffix}`;
  quiet = { name: quietName, ...(await data<{ id: string }>(await owner("POST", "/v1/agents", { name: quietName }))) };

  // Two executed changes over the budgets the platform reported: +30.00 and +25.00 a day, 55.00 committed.
  const campaigns = [
    { campaign_id: `cmp-${randomUUID().slice(0, 8)}`, previous: 50_00, next: 80_00 },
    { campaign_id: `cmp-${randomUUID().slice(0, 8)}`, previous: 20_00, next: 45_00 },
  ];
  await reportCampaignBudgets(
    request,
    adAccount,
    campaigns.map(({ campaign_id, previous }) => ({ campaign_id, daily_budget_minor: previous, currency: CURRENCY })),
  );
  for (const { campaign_id, previous, next } of campaigns) {
    await data(
      await asBearer(request, agent.token, "POST", "/v1/ad-budget-changes", {
        integration_id: integration.id,
        campaign_id,
        previous_daily_budget_minor: previous,
        new_daily_budget_minor: next,
        currency: CURRENCY,
        reason: "ROAS above target",
      }),
    );
  }

  // Revenue 100.00 in the week up to the decision, 250.00 in the week after: +150.00 against +100.00 expected.
  for (const [days, amount] of [
    [-10, 100_00],
    [-5, 250_00],
  ] as const) {
    await data(
      await owner("POST", "/v1/revenues", {
        business_id: business.id,
        amount_minor: amount,
        currency: CURRENCY,
        occurred_on: addDays(today, days),
      }),
    );
  }
  await data(
    await asBearer(request, agent.token, "POST", "/v1/agent-decisions", {
      business_id: business.id,
      title: "Raise the search budget",
      occurred_on: decidedOn,
      expected: { metric: "revenue", delta_minor: 100_00, currency: CURRENCY, window_days: 7 },
      reason: "weekly review",
    }),
  );

  // The agent reads its own economics over REST, as `me`.
  const mine = await data<{ agent_id: string; committed_minor: number; decisions: { better: number; value_minor: number } }>(
    await asBearer(request, agent.token, "GET", `/v1/agents/me/economics?from=${addDays(today, -89)}`),
    200,
  );
  expect(mine).toMatchObject({ agent_id: agent.id, committed_minor: 55_00, decisions: { better: 1, value_minor: 150_00 } });
});

test("the agent's page shows its economics, per period", async ({ page }) => {
  await signIn(page);
  await page.goto(`/agents/${agent.id}`);
  await expect(page.getByRole("heading", { name: agent.name, level: 1 })).toBeVisible();
  const card = page.getByRole("region", { name: "Economics", exact: true });
  await expect(card.getByRole("group", { name: "Economics period" })).toBeVisible();
  await expect(card.getByRole("button", { name: "This month" })).toHaveAttribute("aria-pressed", "true");

  await expect(card.getByTestId("figure-committed")).toContainText(money(55_00));
  await expect(card.getByTestId("figure-committed")).toContainText("2 writes executed: 2 within limits, 0 approved by you");
  await expect(card.getByTestId("figure-ad-budget")).toContainText(`+${money(55_00)}/day`);
  await expect(card.getByTestId("figure-ad-budget")).toContainText("2 changes: 0 applied, 2 planned, 0 failed");
  await expect(card.getByTestId("figure-held")).toContainText("0 approved, 0 rejected, 0 waiting");

  // Over 90 days the decision is in whatever the day of the month: +150.00, return (150 − 55) ÷ 55.
  await card.getByRole("button", { name: "90 days" }).click();
  await expect(card.getByRole("button", { name: "90 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(card.getByTestId("figure-result")).toContainText(`+${money(150_00)}`);
  await expect(card.getByTestId("figure-result")).toContainText("1 better, 0 as expected, 0 worse · 2 measuring");
  await expect(card.getByTestId("figure-roi")).toContainText("172.73 %");
  await expect(card).toContainText(`${addDays(today, -89)} to ${today}, in ${CURRENCY}`);

  await page.waitForLoadState("networkidle");
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/agent-economics.png`, fullPage: true });
  await expectNoSeriousViolations(page, "the agent's page with economics");

  await expectFitsPhone(page, "the agent's page");
  await expect(card.getByTestId("figure-roi")).toBeVisible();
  await expectNoSeriousViolations(page, "the agent's page with economics at 390 px");
  const cardBox = (await card.boundingBox())!;
  for (const figure of await card.locator(".figure").all()) {
    const box = (await figure.boundingBox())!;
    expect(box.x + box.width, await figure.innerText()).toBeLessThanOrEqual(cardBox.x + cardBox.width + 1);
  }
  await card.screenshot({ path: `${SHOTS}/agent-economics-card-390.png` });
});

test("an agent that did nothing says how its figures get there", async ({ page }) => {
  await signIn(page);
  await page.goto(`/agents/${quiet.id}`);
  const card = page.getByRole("region", { name: "Economics", exact: true });
  await expect(card.getByRole("heading", { name: "No activity in this period" })).toBeVisible();
  await expect(card).toContainText("POST /v1/ad-budget-changes");
  await expect(card).toContainText("“execute”");
  await expectFitsPhone(page, "an idle agent's page");
  await expectNoSeriousViolations(page, "an idle agent's page at 390 px");
  await page.screenshot({ path: `${SHOTS}/agent-economics-empty-390.png`, fullPage: true });
});

test("the Agents list shows each agent's spend and result this month", async ({ page }) => {
  await signIn(page);
  // One call for the whole list, not one per agent.
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("agentEconomics")) calls.push(request.url());
  });
  await page.goto("/agents");
  await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "This month" })).toBeVisible();
  // The decision counts this month only when its day is in it.
  const result = decidedOn >= `${today.slice(0, 8)}01` ? 150_00 : 0;
  const row = page.getByRole("row").filter({ hasText: agent.name });
  await expect(row).toContainText(`Spent ${money(55_00)}`);
  await expect(row).toContainText(`Result ${result > 0 ? "+" : ""}${money(result)}`);
  await expect(page.getByRole("row").filter({ hasText: quiet.name })).toContainText("No activity");
  await page.waitForLoadState("networkidle");
  expect(
    calls.filter((url) => url.includes("agentEconomics.find")),
    calls.join("\n"),
  ).toHaveLength(1);
  expect(calls.filter((url) => url.includes("agentEconomics.get"))).toHaveLength(0);

  await page.screenshot({ path: `${SHOTS}/agents-economics-column.png`, fullPage: true });
  await expectNoSeriousViolations(page, "the Agents list");
  await expectFitsPhone(page, "the Agents list");
  await expectNoSeriousViolations(page, "the Agents list at 390 px");
  await page.screenshot({ path: `${SHOTS}/agents-economics-column-390.png`, fullPage: true });
});
