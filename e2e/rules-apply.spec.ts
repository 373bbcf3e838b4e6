// A category rule saved and applied in the same step (issue 37, "Never stuck"): the owner has
// three uncategorised rides; the rule's check counts them, the form offers (ticked) to give them
// their category when it is saved, and saving does both. Shot at 1366 and 390 px, light and dark,
// axe-clean. The spec has an owner of its own (signed in by mail), so the count is its own.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSession, checkEveryPass, signIn } from "./support";

test.setTimeout(180_000);

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots/rules-apply";
const DESKTOP = { width: 1366, height: 800 };

async function post(request: APIRequestContext, token: string, path: string, body: unknown) {
  const response = await request.post(path, {
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
    data: body,
  });
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBeLessThan(300);
}

const everyPass = (page: Page, name: string) => checkEveryPass(page, name, SHOTS);

test("a rule's check counts the existing events, and saving it gives them their category", async ({ page, request }) => {
  const token = await apiSession(request, `rules-apply-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  const today = new Date().toISOString().slice(0, 10);
  for (const [i, amount] of [1250, 890, 2310].entries())
    await post(request, token, "/v1/expenses", {
      personal: true,
      amount_minor: amount,
      currency: "USD",
      occurred_on: today,
      description: `Uber ride ${i + 1}`,
    });
  await post(request, token, "/v1/expenses", {
    personal: true,
    amount_minor: 500,
    currency: "USD",
    occurred_on: today,
    description: "Coffee",
  });

  await page.setViewportSize(DESKTOP);
  await signIn(page, token);
  await page.goto("/rules");
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Text").fill("uber");
  await form.getByLabel("Category").fill("Transport");
  await form.getByRole("button", { name: "Check matches" }).click();
  await expect(form.getByRole("status")).toContainText("This rule would categorise 3 existing events");
  const offer = form.getByRole("checkbox", { name: /Also give the 3 existing events without a category their category/ });
  await expect(offer).toBeChecked();
  await everyPass(page, "rules-checked");

  await form.getByRole("button", { name: "Save rule" }).click();
  const rules = page.getByRole("region", { name: "Your rules" });
  await expect(rules.getByRole("status")).toContainText("was added. 3 existing events got a category.");
  await everyPass(page, "rules-saved-and-applied");

  const response = await request.get("/v1/events?category=Transport", { headers: { Authorization: `Bearer ${token}` } });
  const events = ((await response.json()) as { data: Array<{ description: string }> }).data;
  expect(events.map((event) => event.description).sort()).toEqual(["Uber ride 1", "Uber ride 2", "Uber ride 3"]);
});
