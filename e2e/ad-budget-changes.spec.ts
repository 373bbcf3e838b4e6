// An agent's ad budget change held over its daily limit (issue 17): the agent proposes it over
// REST with its own token (202), the approvals inbox shows it as a diff (campaign, old → new daily
// budget, the agent, its reason, the limit it hit), the owner approves it with a note, and the
// approval then records the written change. axe finds no serious violation; it fits 390 px.
import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { formatMinor } from "../lib/money";
import { asBearer, E2E_OWNER_TOKEN, signIn } from "./support";

test.setTimeout(120_000);

async function data<T>(response: Awaited<ReturnType<APIRequestContext["fetch"]>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

test("the owner approves an agent's ad budget change shown as a diff", async ({ page, request }) => {
  const owner = (method: "GET" | "POST", path: string, body?: unknown) => asBearer(request, E2E_OWNER_TOKEN, method, path, body);
  const business = await data<{ id: string }>(
    await owner("POST", "/v1/businesses", { name: `Ads Lab ${randomUUID().slice(0, 6)}`, currency: "EUR" }),
    201,
  );
  const integration = await data<{ id: string }>(
    await owner("POST", "/v1/integrations/social_ads/connect", { business_id: business.id, account_id: `act_${randomUUID()}` }),
    201,
  );
  const agentName = `Budget agent ${randomUUID().slice(0, 6)}`;
  const agent = await data<{ id: string; token: string }>(
    await owner("POST", "/v1/agents", {
      name: agentName,
      grants: [{ scope: "ads", resource: `business:${business.id}`, level: "execute", daily_limit_minor: 1000, currency: "EUR" }],
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
      currency: "EUR",
      reason: "ROAS doubled this week",
    }),
    202,
  );

  await signIn(page);
  await page.goto("/approvals");
  const item = page.getByRole("article", { name: "Change an ad budget" }).filter({ hasText: campaign });
  await expect(item).toBeVisible();
  await expect(item).toContainText(agentName);
  await expect(item).toContainText("“ROAS doubled this week”");
  await expect(item).toContainText("Over its spending limit");
  const diff = item.getByRole("definition").filter({ hasText: "→" });
  await expect(diff).toContainText(formatMinor(5000, "EUR"));
  await expect(diff).toContainText(formatMinor(7000, "EUR"));
  await expect(item).toContainText(`${formatMinor(1000, "EUR")} a day`);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
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
});
