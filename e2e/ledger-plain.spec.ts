// The ledger says things plainly (issue 37, "Saying things plainly" and "Never stuck"): an
// agent's executed ad budget change reads as money ("50.00 → 70.00 EUR", not minor units), is
// labelled as an agent's action (not an entry by hand) with no Correct or Void; an amount in the
// base currency carries no "rate 1.00000000 (identity)"; totals carry no "N counted"; and on a
// 390 px phone the amount is the second thing read, on the first screen. Shot at 1366 and 390 px,
// light and dark, axe-clean. The spec has an owner of its own (signed in by mail).
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSession, checkEveryPass, E2E_SOCIAL_ADS_SECRET, signIn, switchPass } from "./support";

test.setTimeout(180_000);

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots/ledger-plain";
const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

async function call<T>(request: APIRequestContext, token: string, method: "POST" | "PATCH", path: string, body: unknown) {
  const response = await request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
    data: body,
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return ((await response.json()) as { data: T }).data;
}

const everyPass = (page: Page, name: string) => checkEveryPass(page, name, SHOTS);

test("an agent's budget change reads as money and as the agent's; amounts come second on a phone", async ({ page, request }) => {
  const token = await apiSession(request, `ledger-plain-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  await call(request, token, "PATCH", "/v1/me", { base_currency: "EUR" });
  const business = await call<{ id: string }>(request, token, "POST", "/v1/businesses", {
    name: `Kiosk ${RUN}`,
    currency: "EUR",
  });
  const integration = await call<{ id: string }>(request, token, "POST", "/v1/integrations/social_ads/connect", {
    business_id: business.id,
    account_id: `act_${randomUUID().slice(0, 12)}`,
    signing_secret: E2E_SOCIAL_ADS_SECRET,
  });
  const agent = await call<{ token: string }>(request, token, "POST", "/v1/agents", {
    name: `Ads helper ${RUN}`,
    grants: [
      { scope: "ads", resource: `business:${business.id}`, level: "execute", daily_limit_minor: 100_000, currency: "EUR" },
    ],
  });
  const campaign = `spring-${randomUUID().slice(0, 6)}`;
  await call(request, agent.token, "POST", "/v1/ad-budget-changes", {
    integration_id: integration.id,
    campaign_id: campaign,
    previous_daily_budget_minor: 5000,
    new_daily_budget_minor: 7000,
    currency: "EUR",
    reason: "ROAS doubled this week",
  });
  await call(request, token, "POST", "/v1/expenses", {
    business_id: business.id,
    amount_minor: 1234,
    currency: "EUR",
    occurred_on: new Date().toISOString().slice(0, 10),
    description: `Coffee beans ${RUN}`,
  });

  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await page.goto("/events");
  const action = page.getByRole("row", { name: new RegExp(`Daily budget of campaign ${campaign}`) });
  // Unknown to the service before, so "unknown" → 70.00 EUR: never minor units.
  await expect(action).toContainText(`Daily budget of campaign ${campaign}: unknown → 70.00 EUR`);
  await expect(action.getByTestId("event-source")).toHaveText("An agent's action");
  await expect(action.getByRole("button", { name: /Correct|Void/ })).toHaveCount(0);
  await expect(action).not.toContainText("MANUAL");
  await expect(action).not.toContainText("7000");

  const expense = page.getByRole("row", { name: new RegExp(`Coffee beans ${RUN}`) });
  await expect(expense.getByTestId("event-amount")).toHaveText("\u2212€12.34");
  await expect(expense.getByTestId("event-source")).toHaveText("Entered by hand");
  await expect(expense).not.toContainText("identity");
  await expect(expense).not.toContainText("rate");
  await expect(expense.getByRole("button", { name: `Void Coffee beans ${RUN}` })).toBeVisible();
  await expect(page.getByRole("status", { name: "Totals of the matching events" })).not.toContainText("counted");
  await everyPass(page, "events");

  // On a phone the amount is the second thing read, and on the first screen of the list.
  await switchPass(page, "light", PHONE);
  const amount = expense.getByTestId("event-amount");
  await amount.scrollIntoViewIfNeeded();
  const box = (await amount.boundingBox())!;
  expect(box.x + box.width, "the amount ends inside the phone's screen").toBeLessThanOrEqual(PHONE.width);
  const headers = (await page.getByRole("columnheader").allTextContents()).map((text) => text.trim());
  expect(headers.slice(0, 2)).toEqual(["Event", "Amount"]);
});
