// The Goals page: goals suggested from a business's books and one added from the list, one set
// by hand (every error at once first), marked achieved and reactivated, then deleted after a
// confirmation. The list shows each goal's progress as a bar and a percentage. axe finds no
// serious violation (light and dark, with goals listed and suggestions open), and nothing is
// wider than a 390 px phone.
import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { asBearer, E2E_OWNER_TOKEN, lightAndDarkPasses, seriousViolations, signIn, switchPass } from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const BUSINESS = `Goalpost Studio ${randomUUID().slice(0, 6)}`;
const HAND_MADE = "Half a year of runway";

/** A day a few days back (UTC), so it is in the past in any owner timezone. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

test.beforeAll(async ({ request }) => {
  // The books in the owner's base currency, so the suggestions (in the base) show the amounts as recorded.
  const me = await asBearer(request, E2E_OWNER_TOKEN, "GET", "/v1/me");
  const currency = ((await me.json()) as { data: { base_currency: string } }).data.base_currency;
  const post = async (path: string, body: unknown) => {
    const response = await asBearer(request, E2E_OWNER_TOKEN, "POST", path, body);
    expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data;
  };
  const business = await post("/v1/businesses", { name: BUSINESS, currency: "EUR" });
  // Cash, and a month of spending larger than its revenue: save, spend_cap and revenue are
  // suggested, not runway (20 000.00 of cash lasts 3 600 days at a net burn of 500.00 in 90 days).
  await post("/v1/cash-snapshots", {
    business_id: business.id,
    amount_minor: 2_000_000,
    currency,
    as_of: new Date(Date.now() - 3_600_000).toISOString(),
    payload: { account_id: "goals-main" },
  });
  await post("/v1/expenses", { business_id: business.id, amount_minor: 90_000, currency, occurred_on: daysAgo(3) });
  await post("/v1/revenues", { business_id: business.id, amount_minor: 40_000, currency, occurred_on: daysAgo(2) });
});

test("suggested goals for a business, one added; one set by hand; marked achieved; deleted", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Goals" }).click();
  await expect(page.getByRole("heading", { name: "Goals", level: 1 })).toBeVisible();
  const list = page.getByRole("region", { name: "Your goals" });
  await expect(list.getByRole("heading", { name: "No goals yet" })).toBeVisible();
  await expect(list).toContainText("Suggest goals");
  await list.screenshot({ path: `${SHOTS}/goals-empty.png` });

  // Suggestions: computed from the business's books, nothing stored until one is added.
  const suggest = page.getByRole("region", { name: "Suggest goals" });
  await expect(suggest.getByLabel("Scope to suggest for").locator("option", { hasText: BUSINESS })).toBeAttached();
  await suggest.getByLabel("Scope to suggest for").selectOption({ label: BUSINESS });
  await suggest.getByRole("button", { name: "Suggest goals" }).click();
  const suggestions = suggest.getByRole("list", { name: `Suggestions for ${BUSINESS}` });
  await expect(suggestions.getByRole("article")).toHaveCount(3);
  await expect(suggestions.getByRole("heading", { name: "Save three months of net burn" })).toBeVisible();
  await expect(suggestions.getByRole("heading", { name: "Grow net revenue by 10%" })).toBeVisible();
  const cap = suggestions.getByRole("article", { name: "Keep monthly spending under the last 30 days'" });
  await expect(cap).toContainText("900.00");
  await expect(list.getByRole("heading", { name: "No goals yet" })).toBeVisible();
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/goals-suggestions-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);

  await cap.getByRole("button", { name: /^Add/ }).click();
  await expect(cap.getByRole("status")).toHaveText("Added");
  const added = list.getByRole("article", { name: "Keep monthly spending under the last 30 days'" });
  await expect(added).toBeVisible();
  // This month's spending against the cap: a bar and its percentage (100% when all of it fell this month).
  await expect(
    added.getByRole("progressbar", { name: "Progress of Keep monthly spending under the last 30 days'" }),
  ).toBeVisible();
  await expect(added).toContainText("Spent this month:");
  await expect(added.locator(".goal-percent")).toHaveText(/^\d{1,3}(\.\d)?%$/);
  await expect(added).toContainText(BUSINESS);

  // By hand: every wrong field at once (the panel's own check of the days, the server's of the name).
  const form = page.getByRole("form", { name: "Set a goal" });
  await form.getByLabel("Scope").selectOption({ label: BUSINESS });
  await form.getByLabel("Kind").selectOption({ label: "Runway" });
  await form.getByLabel("Days of runway").fill("half a year");
  await form.getByRole("button", { name: "Set goal" }).click();
  await expect(form.getByText("Enter a whole number of days.")).toBeVisible();
  await expect(form.getByText("Must not be empty.")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Days of runway")).toHaveAttribute("aria-invalid", "true");

  // A money kind needs its amount: named beside the other wrong field.
  await form.getByLabel("Kind").selectOption({ label: "Save" });
  await form.getByLabel("Target date (optional)").fill("2001-01-01");
  await form.getByRole("button", { name: "Set goal" }).click();
  await expect(form.getByText("Enter the target amount.")).toBeVisible();
  await expect(form.getByLabel("Target date (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText(/Must not be before today/)).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await form.screenshot({ path: `${SHOTS}/goals-form-errors.png` });

  await form.getByLabel("Kind").selectOption({ label: "Runway" });
  await form.getByLabel("Name").fill(HAND_MADE);
  await form.getByLabel("Days of runway").fill("180");
  await form.getByLabel("Target date (optional)").fill("2099-06-30");
  await form.getByRole("button", { name: "Set goal" }).click();
  await expect(form.getByRole("status")).toHaveText(`The goal “${HAND_MADE}” was added.`);
  const handMade = list.getByRole("article", { name: HAND_MADE });
  await expect(handMade).toContainText("Runway: ");
  await expect(handMade).toContainText("180 days");
  await expect(handMade).toContainText("2099-06-30");
  await expect(list.getByText("2 goals")).toBeVisible();

  // Achieved, and back.
  await handMade.getByRole("button", { name: "Mark achieved" }).click();
  await expect(page.getByRole("status").filter({ hasText: `“${HAND_MADE}” is marked achieved.` })).toBeVisible();
  await expect(handMade.locator(".pill-success")).toHaveText("achieved");
  await expect(handMade.getByRole("button", { name: "Mark achieved" })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/goals-desktop.png`, fullPage: true });
  await handMade.getByRole("button", { name: "Reactivate" }).click();
  await expect(handMade.locator(".pill-accent")).toHaveText("active");
  await handMade.getByRole("button", { name: "Mark achieved" }).click();
  await expect(handMade.locator(".pill-success")).toHaveText("achieved");

  // Delete: only after the confirmation.
  await handMade.getByRole("button", { name: `Delete ${HAND_MADE}…` }).click();
  const confirm = handMade.getByRole("group", { name: `Delete ${HAND_MADE}` });
  await expect(confirm).toContainText("for good");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(handMade).toBeVisible();
  await handMade.getByRole("button", { name: `Delete ${HAND_MADE}…` }).click();
  await handMade.getByRole("button", { name: "Delete goal" }).click();
  await expect(page.getByRole("status").filter({ hasText: `“${HAND_MADE}” was deleted.` })).toBeVisible();
  await expect(list.getByRole("article", { name: HAND_MADE })).toHaveCount(0);
  await expect(list.getByText("1 goal", { exact: true })).toBeVisible();
});

async function goalsPage(browser: Browser, baseURL: string | undefined, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ ...options, baseURL });
  const page = await context.newPage();
  await signIn(page);
  await page.goto("/goals");
  await expect(page.getByRole("heading", { name: "Goals", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your goals" }).getByRole("article").first()).toBeVisible();
  // With the suggestions open too.
  const suggest = page.getByRole("region", { name: "Suggest goals" });
  await suggest.getByLabel("Scope to suggest for").selectOption({ label: BUSINESS });
  await suggest.getByRole("button", { name: "Suggest goals" }).click();
  await expect(suggest.getByRole("list")).toBeVisible();
  await page.waitForLoadState("networkidle");
  return page;
}

test("the Goals page passes axe in light and dark and fits a 390 px phone", async ({ browser, baseURL }) => {
  // One page for the four passes: the scheme and the viewport switch on it (switchPass).
  const page = await goalsPage(browser, baseURL, { colorScheme: "light", viewport: DESKTOP });
  for (const [colorScheme, size, viewport] of lightAndDarkPasses(DESKTOP, PHONE)) {
    await switchPass(page, colorScheme, viewport);
    const where = `goals (${size}, ${colorScheme})`;
    expect.soft(await seriousViolations(page), `axe on ${where}`).toEqual([]);
    if (size === "phone") {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(width, `${where} is no wider than the screen`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/goals-${size}-${colorScheme}.png`, fullPage: true });
  }
  await page.context().close();
});
