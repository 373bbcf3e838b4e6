// An agent's decisions on its page (issue 17): the agent records decisions over REST with its own
// token, the owner's ledger decides their outcomes, and the agent's page lists them with the
// verdict in words and an icon, expected against actual; an agent without decisions shows what
// to do next. axe finds no serious violation, and the page fits a 390 px phone.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { addDays } from "../lib/days";
import { formatMinor } from "../lib/money";
import { asBearer, E2E_OWNER_TOKEN, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };

let currency: string;
let agent: { id: string; token: string };
let quiet: { id: string };

async function created<T>(response: Awaited<ReturnType<APIRequestContext["fetch"]>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: T }).data;
}

test.beforeAll(async ({ request }) => {
  const owner = (method: "GET" | "POST", path: string, body?: unknown) => asBearer(request, E2E_OWNER_TOKEN, method, path, body);
  const me = (await (await owner("GET", "/v1/me")).json()) as { data: { base_currency: string } };
  currency = me.data.base_currency;
  const today = new Date().toISOString().slice(0, 10); // the static owner's time zone is UTC
  const business = await created<{ id: string }>(await owner("POST", "/v1/businesses", { name: "Decisions Lab", currency }));
  agent = await created(
    await owner("POST", "/v1/agents", {
      name: "Growth agent",
      grants: [{ scope: "ads", resource: `business:${business.id}`, level: "execute" }],
    }),
  );
  quiet = await created(await owner("POST", "/v1/agents", { name: "Quiet agent" }));

  // The ledger: 100.00 in the week up to the decision, 250.00 in the week after it.
  for (const [days, amount] of [
    [-10, 100_00],
    [-5, 250_00],
  ] as const) {
    await created(
      await owner("POST", "/v1/revenues", {
        business_id: business.id,
        amount_minor: amount,
        currency,
        occurred_on: addDays(today, days),
      }),
    );
  }

  const decide = async (body: object) =>
    created<{ id: string }>(
      await asBearer(request, agent.token, "POST", "/v1/agent-decisions", {
        business_id: business.id,
        reason: "weekly review",
        ...body,
      }),
    );
  const measured = await decide({
    title: "Raise the search budget",
    occurred_on: addDays(today, -8),
    expected: { metric: "revenue", delta_minor: 100_00, currency, window_days: 7 },
  });
  await decide({
    title: "Shift spend to search",
    occurred_on: addDays(today, -8),
    expected: { metric: "ad_spend", delta_minor: -20_00, currency, window_days: 7 },
  });
  await decide({ title: "Try a new audience", expected: { metric: "revenue", delta_minor: 50_00, currency, window_days: 7 } });

  // The agent reads its own review over REST: measured, better than expected.
  const review = await asBearer(request, agent.token, "GET", `/v1/decisions/${measured.id}/review`);
  expect(review.status(), await review.text()).toBe(200);
  expect(((await review.json()) as { data: unknown }).data).toMatchObject({
    status: "measured",
    baseline_minor: 100_00,
    actual_minor: 250_00,
    delta_minor: 150_00,
    expected_delta_minor: 100_00,
    variance_minor: 50_00,
    verdict: "better",
  });
});

test("the agent's page lists its decisions with their outcomes, expected against actual", async ({ page }) => {
  await signIn(page);
  await page.goto(`/agents/${agent.id}`);
  await expect(page.getByRole("heading", { name: "Growth agent", level: 1 })).toBeVisible();
  const card = page.getByRole("region", { name: "Decisions", exact: true });
  await expect(card.getByText("3 decisions")).toBeVisible();

  const better = card.getByRole("row", { name: /Raise the search budget/ });
  await expect(better).toContainText("Better than expected");
  await expect(better).toContainText(`+${formatMinor(100_00, currency)}`);
  await expect(better).toContainText(`+${formatMinor(150_00, currency)}`);
  await expect(better).toContainText(`${formatMinor(100_00, currency)} → ${formatMinor(250_00, currency)}`);
  await expect(better).toContainText("Revenue");

  const inconclusive = card.getByRole("row", { name: /Shift spend to search/ });
  await expect(inconclusive).toContainText("Inconclusive");
  await expect(inconclusive).toContainText("ad spend coverage is missing");

  const pending = card.getByRole("row", { name: /Try a new audience/ });
  await expect(pending).toContainText("Measuring");
  await expect(pending).toContainText("Window ends");
  await expect(pending).toContainText("So far:");

  await page.waitForLoadState("networkidle");
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/agent-decisions.png`, fullPage: true });
  await expectNoSeriousViolations(page, "the agent's page with decisions");

  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "at 390 px").toBeLessThanOrEqual(PHONE.width);
  await expect(better).toContainText("Better than expected");
  await expectNoSeriousViolations(page, "the agent's page with decisions at 390 px");
  // Every row's outcome stays inside the card.
  const cardBox = (await card.boundingBox())!;
  for (const pill of await card.locator(".verdict").all()) {
    const box = (await pill.boundingBox())!;
    expect(box.x + box.width, await pill.innerText()).toBeLessThanOrEqual(cardBox.x + cardBox.width);
  }
  await card.screenshot({ path: `${SHOTS}/agent-decisions-card-390.png` });
  await page.screenshot({ path: `${SHOTS}/agent-decisions-390.png`, fullPage: true });
});

test("an agent without decisions says how they get there", async ({ page }) => {
  await signIn(page);
  await page.goto(`/agents/${quiet.id}`);
  const card = page.getByRole("region", { name: "Decisions", exact: true });
  await expect(card.getByRole("heading", { name: "No decisions yet" })).toBeVisible();
  await expect(card).toContainText("POST /v1/agent-decisions");
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "at 390 px").toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: `${SHOTS}/agent-decisions-empty-390.png`, fullPage: true });
});
