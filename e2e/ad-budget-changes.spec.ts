// An agent's ad budget change held over its daily limit (issue 17), end to end: the agent proposes
// it over REST with its own token (202) and records its decision; the approvals inbox shows it as
// a diff (campaign, old → new daily budget, the agent, its reason, the limit it hit); the owner
// approves it with a note; the ad platform's signed webhook says the budget was applied and
// reports the day's spend; the business's Ads tab shows the change applied and the agent's page
// shows the decision's review with that spend. axe finds no serious violation; it fits 390 px.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { addDays } from "../lib/days";
import { formatMinor } from "../lib/money";
import { asBearer, E2E_OWNER_TOKEN, E2E_SOCIAL_ADS_SECRET, seriousViolations, signIn } from "./support";

test.setTimeout(120_000);

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
  const diff = item.getByRole("definition").filter({ hasText: "→" });
  await expect(diff).toContainText(formatMinor(5000, currency));
  await expect(diff).toContainText(formatMinor(7000, currency));
  await expect(item).toContainText(`${formatMinor(1000, currency)} a day`);

  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

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

  // The platform applies the new budget and reports today's spend, signed as it signs.
  const delivery = JSON.stringify({
    object: "ad_account",
    entry: [
      {
        id: adAccount,
        time: Math.floor(Date.now() / 1000),
        changes: [
          { field: "campaign_budget", value: { campaign_id: campaign, status: "APPLIED", daily_budget: "70.00" } },
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
