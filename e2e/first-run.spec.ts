// A founder's first run (issue 37, "First run"): a new owner signs in from a German browser in
// Berlin; the Overview asks for the base currency, time zone and locale, filled in from the
// browser (EUR, Europe/Berlin, de-DE), and one click confirms them; it then offers the first
// business in EUR; Get started links its expense step to that business, where the New event
// form opens with the business as its scope (and its currency); the expense lands in the business
// and Get started ticks its third step. A second business makes no guess: the scope used last is
// the default, and without one the form asks instead of picking Personal. Every page touched is
// shot at 1366 and 390 px, light and dark, and axe finds no serious violation. The spec has an
// owner of its own (signed in by mail), so its first run is its own.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSession, checkEveryPass, signIn } from "./support";

test.setTimeout(240_000);
test.use({ locale: "de-DE", timezoneId: "Europe/Berlin" });

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots/first-run";
const DESKTOP = { width: 1366, height: 800 };

async function get<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const response = await request.get(path, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), `GET ${path}: ${await response.text()}`).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

const everyPass = (page: Page, name: string) => checkEveryPass(page, name, SHOTS);

test("a new owner is asked once, gets a first business, and an expense defaults to it", async ({ page, request }) => {
  const email = `first-run-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`;
  const token = await apiSession(request, email);
  await page.setViewportSize(DESKTOP);
  await signIn(page, token);

  // Asked on the first sign-in, with the browser's guess filled in.
  const questions = page.getByRole("form", { name: "Before you start: your currency, time zone and language" });
  await expect(questions).toBeVisible();
  await expect(questions.getByLabel("Base currency")).toHaveValue("EUR");
  await expect(questions.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  await expect(questions.getByLabel("Language and formats")).toHaveValue("de-DE");
  await expect(questions.getByTestId("first-run-sample")).toContainText("1.234,56 €");
  // A new owner's empty books: nothing to restate, so no restatement preview.
  await expect(page.getByRole("region", { name: /Changing the base currency/ })).toHaveCount(0);
  await everyPass(page, "overview-asked");

  // One step confirms all three.
  await questions.getByRole("button", { name: "Confirm and continue" }).click();
  const firstBusiness = page.getByRole("region", { name: "Your first business" });
  await expect(firstBusiness).toBeVisible();
  await expect(questions).toHaveCount(0);
  const me = await get<{
    base_currency: string;
    timezone: string;
    locale: string;
    onboarding: { base_currency_confirmed: boolean };
  }>(request, token, "/v1/me");
  expect(me).toMatchObject({
    base_currency: "EUR",
    timezone: "Europe/Berlin",
    locale: "de-DE",
    onboarding: { base_currency_confirmed: true },
  });
  await expect(firstBusiness.getByLabel("Currency")).toHaveValue("EUR");
  await everyPass(page, "overview-first-business");

  // The first business, in EUR.
  const name = `Backstube ${RUN}`;
  await firstBusiness.getByLabel("Name").fill(name);
  await firstBusiness.getByRole("button", { name: "Create business" }).click();
  await expect(firstBusiness).toHaveCount(0);
  const businesses = await get<Array<{ id: string; name: string; currency: string }>>(request, token, "/v1/businesses");
  expect(businesses).toHaveLength(1);
  const business = businesses[0]!;
  expect(business).toMatchObject({ name, currency: "EUR" });
  const steps = page.getByTestId("getting-started");
  await expect(steps.locator('[data-step="business"]')).toHaveAttribute("data-done", "true");
  await expect(steps.locator('[data-step="data"]')).not.toHaveAttribute("data-done", "true");

  // Get started's expense step leads to the New event form with the business as its scope.
  await steps.getByRole("link", { name: "record revenue and expenses" }).click();
  await expect(page).toHaveURL(new RegExp(`/events\\?business=${business.id}$`));
  const form = page.getByRole("form", { name: "New event" });
  await expect(form.getByLabel("Scope")).toHaveValue(`b:${business.id}`);
  await expect(form.getByLabel("Currency")).toHaveValue("EUR");
  await everyPass(page, "events-defaulted");
  await form.getByLabel("Amount").fill("12.50");
  await form.getByLabel("Description").fill("Flour");
  await form.getByRole("button", { name: "Add expense" }).click();
  await expect(form.getByRole("status")).toHaveText("The expense was added.");
  const events = await get<Array<{ business_id: string | null; personal: boolean; amount_minor: number; currency: string }>>(
    request,
    token,
    "/v1/events",
  );
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ business_id: business.id, personal: false, amount_minor: 1250, currency: "EUR" });

  // Get started ticks its data step on the expense: it names "bring in your money data".
  await page.goto("/overview");
  await expect(page.getByTestId("getting-started").locator('[data-step="data"]')).toHaveAttribute("data-done", "true");
  await expect(page.getByRole("form", { name: /Before you start/ })).toHaveCount(0);

  // A second business: the scope used last is the default; without it the form asks.
  const second = await request.post("/v1/businesses", {
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
    data: { name: `Austin ${RUN}`, currency: "USD" },
  });
  expect(second.status()).toBe(201);
  await page.goto("/events");
  await expect(form.getByLabel("Scope").locator("option", { hasText: `Austin ${RUN}` })).toBeAttached();
  await expect(form.getByLabel("Scope")).toHaveValue(`b:${business.id}`);
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(form.getByLabel("Scope").locator("option", { hasText: `Austin ${RUN}` })).toBeAttached();
  await expect(form.getByLabel("Scope")).toHaveValue("");
  await form.getByLabel("Amount").fill("3.00");
  await form.getByRole("button", { name: "Add expense" }).click();
  await expect(form.getByText("Choose where this belongs: a business, a project or Personal.")).toBeVisible();
  expect(await get<unknown[]>(request, token, "/v1/events")).toHaveLength(1);
});
