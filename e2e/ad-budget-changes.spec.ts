// An agent's ad budget change held over its daily limit (issue 17), end to end: the agent proposes
// it over REST with its own token (202) and records its decision; the approvals inbox shows it as
// a diff (campaign, the budget the service knows → the new one, the previous budget the agent
// claimed, what it would count against the limit and commit in the forecast, the agent, its
// reason, the limit it hit: issue 32, pinned-wave3 §1.1, §1.3); the owner approves it with a note;
// the business's page lists its budget among the committed costs; the ad platform's signed webhook
// says the budget was applied (reporting it) and reports the day's spend; the next change is
// counted from that known budget; the business's Ads tab shows the change applied and the agent's
// page shows the decision's review with that spend. axe finds no serious violation (light and
// dark); it fits 390 px.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Locator } from "@playwright/test";
import { addDays } from "../lib/days";
import { formatMinor, minorToMajor } from "../lib/money";
import { asBearer, E2E_OWNER_TOKEN, E2E_SOCIAL_ADS_SECRET, seriousViolations, signIn } from "./support";

test.setTimeout(120_000);

/** The value of a fact of an approval's diff, by its term. */
const fact = (scope: Locator, term: string) =>
  scope.getByRole("term").filter({ hasText: term }).locator("xpath=following-sibling::dd[1]");

async function data<T>(response: Awaited<ReturnType<APIRequestContext["fetch"]>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

test("the owner approves an agent's ad budget change shown as a diff", async ({ page, request }) => {
  const owner = (method: "GET" | "POST", path: string, body?: unknown) => asBearer(request, E2E_OWNER_TOKEN, method, path, body);
  // All in the owner's base currency, so the review's figures are the delivered spend exactly.
  const currency = (await data<{ base_currency: string }>(await owner("GET", "/v1/me"), 200)).base_currency;
  const business = await data<{ id: string }>(
    await owner("POST", "/v1/businesses", { name: `Ads Lab ${randomUUID().slice(0, 6)}`, currency }),
    201,
  );
  const adAccount = `act_${randomUUID()}`;
  const integration = await data<{ id: string }>(
    await owner("POST", "/v1/integrations/social_ads/connect", {
      business_id: business.id,
      account_id: adAccount,
      signing_secret: E2E_SOCIAL_ADS_SECRET,
    }),
    201,
  );
  const agentName = `Budget agent ${randomUUID().slice(0, 6)}`;
  const agent = await data<{ id: string; token: string }>(
    await owner("POST", "/v1/agents", {
      name: agentName,
      grants: [{ scope: "ads", resource: `business:${business.id}`, level: "execute", daily_limit_minor: 1000, currency }],
    }),
    201,
  );
  const campaign = `spring-${randomUUID().slice(0, 8)}`;
  const held = await data<{ approval: { id: string } }>(
    await asBearer(request, agent.token, "POST", "/v1/ad-budget-changes", {
      integration_id: integration.id,
      campaign_id: campaign,
      previous_daily_budget_minor: 5000,
      new_daily_budget_minor: 7000,
      currency,
      reason: "ROAS doubled this week",
    }),
    202,
  );

  // The agent records why, linked to the held approval: ad spend measured over the week from today.
  const today = new Date().toISOString().slice(0, 10); // the static owner's time zone is UTC
  const decisionTitle = `Raise ${campaign} to 70 a day`;
  const decision = await data<{ id: string }>(
    await asBearer(request, agent.token, "POST", "/v1/agent-decisions", {
      business_id: business.id,
      title: decisionTitle,
      reason: "ROAS doubled this week",
      occurred_on: addDays(today, -1),
      approval_id: held.approval.id,
      expected: { metric: "ad_spend", delta_minor: 140_00, currency, window_days: 7 },
    }),
    201,
  );

  await signIn(page);
  await page.goto("/approvals");
  const item = page.getByRole("article", { name: "Change an ad budget" }).filter({ hasText: campaign });
  await expect(item).toBeVisible();
  await expect(item).toContainText(agentName);
  await expect(item).toContainText("“ROAS doubled this week”");
  await expect(item).toContainText("Over its spending limit");
  // Nothing is known of the campaign yet: the 50.00 the agent claims is shown, not counted; the whole 70.00 counts.
  const diff = item.getByRole("definition").filter({ hasText: "→" });
  await expect(diff).toContainText("Not known");
  await expect(diff).toContainText(formatMinor(7000, currency));
  await expect(fact(item, "The agent said it was")).toContainText(formatMinor(5000, currency));
  await expect(fact(item, "Would count against its limit")).toHaveText(`${formatMinor(7000, currency)} a day`);
  await expect(fact(item, "In the forecast")).toContainText(`${formatMinor(7000 * 30, currency)} over the next 30 days`);
  await expect(item).toContainText(`${formatMinor(1000, currency)} a day`);

  await page.setViewportSize({ width: 1366, height: 900 });
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "test-results/screenshots/ad-budget-approval-1366.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await item.screenshot({ path: "test-results/screenshots/ad-budget-approval-390.png" });

  await item.getByLabel(/Note/).fill("Fine for the spring sale");
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Approved: Change an ad budget (${agentName}).` })).toBeVisible();

  const approval = await data<{ status: string; result: { status: string; data: Record<string, unknown> } }>(
    await owner("GET", `/v1/approvals/${held.approval.id}`),
    200,
  );
  expect(approval.status).toBe("approved");
  expect(approval.result).toMatchObject({
    status: "succeeded",
    data: { campaign_id: campaign, status: "planned", agent_id: agent.id, limit_checked: null, approval_id: held.approval.id },
  });

  // What it commits shows on the business's page: 70.00 a day, named by its campaign.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`/businesses/${business.id}`);
  const commitment = page.getByTestId("commitment").filter({ hasText: `Ad budget ${campaign}` });
  await expect(commitment).toContainText(`${formatMinor(7000, currency)} a day`);
  await expect(commitment.getByTestId("commitment-amount")).toHaveText(`−${formatMinor(7000 * 30, currency)}`);
  expect(await seriousViolations(page)).toEqual([]);
  await commitment.screenshot({ path: "test-results/screenshots/ad-budget-commitment-1366.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The platform applies the new budget and reports today's spend, signed as it signs.
  const delivery = JSON.stringify({
    object: "ad_account",
    entry: [
      {
        id: adAccount,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: "campaign_budget",
            value: { campaign_id: campaign, status: "APPLIED", daily_budget: minorToMajor(7000, currency), currency },
          },
          { field: "spend", value: { date: today, level: "campaign", campaign_id: campaign, spend: "64.20", currency } },
        ],
      },
    ],
  });
  const delivered = await request.post("/v1/webhooks/social_ads", {
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", E2E_SOCIAL_ADS_SECRET).update(delivery).digest("hex")}`,
    },
    data: delivery,
  });
  expect(delivered.status(), await delivered.text()).toBe(200);

  // The next raise is counted from the 70.00 the platform reported, whatever the agent claims.
  const next = await data<{ approval: { id: string } }>(
    await asBearer(request, agent.token, "POST", "/v1/ad-budget-changes", {
      integration_id: integration.id,
      campaign_id: campaign,
      previous_daily_budget_minor: 8900,
      new_daily_budget_minor: 9000,
      currency,
      reason: "Still under target CPA",
    }),
    202,
  );
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/approvals");
  const raise = page.getByRole("article", { name: "Change an ad budget" }).filter({ hasText: "Still under target CPA" });
  await expect(raise.getByRole("definition").filter({ hasText: "→" })).toContainText(formatMinor(7000, currency));
  await expect(fact(raise, "The agent said it was")).toContainText(formatMinor(8900, currency));
  await expect(fact(raise, "Would count against its limit")).toHaveText(`${formatMinor(2000, currency)} a day`);
  await raise.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rejected: Change an ad budget" })).toBeVisible();
  expect((await data<{ status: string }>(await owner("GET", `/v1/approvals/${next.approval.id}`), 200)).status).toBe("rejected");

  // The Ads tab lists the change as applied.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/businesses/${business.id}/ads`);
  const changes = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Budget change" }) });
  const change = changes.getByRole("row").filter({ hasText: campaign });
  await expect(change).toContainText(formatMinor(7000, currency));
  await expect(change).toContainText("applied");

  // The decision's review: measuring, the day's spend so far against nothing the week before.
  const review = await data<Record<string, unknown>>(
    await asBearer(request, agent.token, "GET", `/v1/decisions/${decision.id}/review`),
    200,
  );
  expect(review).toMatchObject({
    status: "pending",
    metric: "ad_spend",
    baseline_minor: 0,
    actual_minor: 64_20,
    delta_minor: 64_20,
  });
  await page.goto(`/agents/${agent.id}`);
  const row = page.getByRole("region", { name: "Decisions", exact: true }).getByRole("row", { name: new RegExp(decisionTitle) });
  await expect(row).toContainText("Measuring");
  await expect(row).toContainText(`+${formatMinor(140_00, currency)}`);
  await expect(row).toContainText(`So far: ${formatMinor(0, currency)} → ${formatMinor(64_20, currency)}`);
  await page.screenshot({ path: "test-results/screenshots/ad-budget-change-decision.png", fullPage: true });
});
