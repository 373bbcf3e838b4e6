// An agent's change approved resolves its notification (issue 37, "Saying things plainly"): an
// agent's ad budget change is held over its daily limit; the bell counts the approval.pending
// notification, which names what waits in words (not its action code) and its kind (not its
// code); the owner approves it in Approvals; the bell counts it no more and the notification
// says it was decided. Every page touched is shot at 1366 and 390 px, light and dark, and axe
// finds no serious violation. The spec has an owner of its own (signed in by mail), so its bell
// counts only its own notifications while the other specs run.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSession, checkEveryPass, E2E_SOCIAL_ADS_SECRET, signIn } from "./support";

test.setTimeout(120_000);

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots/approval-notification";
const DESKTOP = { width: 1366, height: 800 };

async function call<T>(
  request: APIRequestContext,
  token: string,
  method: "GET" | "POST",
  path: string,
  body: unknown,
  status: number,
) {
  const response = await request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

const bell = (page: Page) => page.getByTestId("notification-bell");

const everyPass = (page: Page, name: string) => checkEveryPass(page, name, SHOTS);

test("an agent's change approved in Approvals resolves its notification and the bell counts down", async ({ page, request }) => {
  const token = await apiSession(request, `approval-notice-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  const owner = <T>(method: "GET" | "POST", path: string, body: unknown, status: number) =>
    call<T>(request, token, method, path, body, status);
  const business = await owner<{ id: string }>("POST", "/v1/businesses", { name: `Kiosk ${RUN}`, currency: "EUR" }, 201);
  const adAccount = `act_${randomUUID().slice(0, 12)}`;
  const integration = await owner<{ id: string }>(
    "POST",
    "/v1/integrations/social_ads/connect",
    { business_id: business.id, account_id: adAccount, signing_secret: E2E_SOCIAL_ADS_SECRET },
    201,
  );
  const agentName = `Ads helper ${RUN}`;
  const agent = await owner<{ id: string; token: string }>(
    "POST",
    "/v1/agents",
    {
      name: agentName,
      grants: [{ scope: "ads", resource: `business:${business.id}`, level: "execute", daily_limit_minor: 1000, currency: "EUR" }],
    },
    201,
  );
  const campaign = `spring-${randomUUID().slice(0, 8)}`;
  await call(
    request,
    agent.token,
    "POST",
    "/v1/ad-budget-changes",
    {
      integration_id: integration.id,
      campaign_id: campaign,
      previous_daily_budget_minor: 5000,
      new_daily_budget_minor: 7000,
      currency: "EUR",
      reason: "ROAS doubled this week",
    },
    202,
  );

  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await expect(page.getByTestId("unread-count")).toHaveText("1");

  // The notification says what waits in words, and its kind; no action code, no "code".
  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  const item = page.getByRole("article", { name: "Waiting for your approval: change an ad budget" });
  await expect(item).toBeVisible();
  await expect(item).toContainText("Unread");
  await expect(item).toContainText("Approval");
  await expect(item).toContainText("ROAS doubled this week");
  await expect(item).not.toContainText("ad_budget_change");
  await expect(item).not.toContainText("approval.pending");
  await expect(page.getByLabel("Kind")).toBeVisible();
  await expect(page.getByLabel(/code/i)).toHaveCount(0);
  await everyPass(page, "notifications-waiting");

  // The owner decides in Approvals.
  await item.getByRole("link", { name: /Open approvals/ }).click();
  await expect(page).toHaveURL(/\/approvals$/);
  const approval = page.getByRole("article", { name: "Change an ad budget" });
  await expect(approval).toBeVisible();
  // Named plainly: the agent, the ad account and its business, the campaign, the limit's business; no jargon.
  await expect(approval).toContainText("Proposed change");
  await expect(approval).toContainText(agentName);
  await expect(approval).toContainText(`${adAccount}) of Kiosk ${RUN}`);
  await expect(approval).toContainText(campaign);
  await expect(approval).toContainText(`(for the business Kiosk ${RUN})`);
  await expect(approval).toContainText("€70.00");
  await expect(approval).toContainText("From the day you approve");
  for (const jargon of ["Held write", "ad_budget_change", "business:", "7000"]) await expect(approval).not.toContainText(jargon);
  await everyPass(page, "approvals-waiting");
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Approved: Change an ad budget (${agentName}).` })).toBeVisible();
  // The bell counts it no more, without a reload.
  await expect(bell(page)).toHaveAccessibleName("Notifications, none unread");
  await expect(page.getByTestId("unread-count")).toHaveCount(0);
  // What approving did, in words (not JSON), among all approvals.
  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "All" }).click();
  await expect(approval).toContainText("What it did: Done: the daily budget is now €70.00");
  await expect(approval).not.toContainText("succeeded");
  await expect(approval).not.toContainText("{");
  await everyPass(page, "approvals-decided");

  // The notification says it was decided, and stays so after a reload.
  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(item).toContainText("Decided");
  await expect(item.getByTestId("notification-resolution")).toContainText("You approved it");
  await expect(item.getByTestId("notification-resolution")).toContainText("Nothing waits for you here any more.");
  await expect(item).not.toContainText("Unread");
  await page.reload();
  await expect(item.getByTestId("notification-resolution")).toContainText("You approved it");
  await expect(page.getByTestId("unread-count")).toHaveCount(0);
  await page.getByRole("group", { name: "Show" }).getByRole("button", { name: "Unread" }).click();
  await expect(page.getByRole("heading", { name: "You are all caught up" })).toBeVisible();
  await page.getByRole("group", { name: "Show" }).getByRole("button", { name: "All" }).click();
  await expect(item).toBeVisible();
  await everyPass(page, "notifications-decided");
});
