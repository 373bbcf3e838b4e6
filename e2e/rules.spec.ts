// Category rules in a real browser (issue 14): the Rules page (empty state, a refused pattern,
// the dry-run count shown before saving), a statement imported through the imports page whose
// preview shows the rule's category (one row edited by hand), and both categories on the events
// page; renaming and archiving a business. axe finds no serious violation; the page fits a phone.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_OWNER_TOKEN, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const BUSINESS = `Rules Ltd ${RUN}`;
const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };

async function createBusiness(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/v1/businesses", {
    headers: { Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Idempotency-Key": randomUUID() },
    data: { name, currency: "EUR" },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function expectFitsThePhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

test("a rule made on the Rules page categorises an imported statement", async ({ page, request }) => {
  await createBusiness(request, BUSINESS);
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rules" }).click();
  await expect(page.getByRole("heading", { name: "Rules", level: 1 })).toBeVisible();
  await expect(page.getByText("No rules yet")).toBeVisible();
  await expectNoSeriousViolations(page, "Rules (empty)");

  const form = page.getByRole("form", { name: "New rule" });
  // A pattern RE2 refuses, and no category: both errors at once, nothing saved.
  await form.getByLabel("Match").selectOption("regex");
  await form.getByLabel("Text").fill("(taxi)\\1");
  await form.getByRole("button", { name: "Check matches" }).click();
  await expect(form.getByText(/Is not a valid regular expression/)).toBeVisible();
  await expect(form.getByText("Must not be empty.")).toBeVisible();
  await expect(form.getByLabel("Text")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("button", { name: "Save rule" })).toHaveCount(0);

  await form.getByLabel("Match").selectOption("contains");
  await form.getByLabel("Text").fill(`taxi ${RUN}`);
  await form.getByLabel("Category").fill("Transport");
  await form.getByRole("button", { name: "Check matches" }).click();
  // The dry run's count comes before the save.
  await expect(
    form.getByRole("status").filter({ hasText: /This rule matches none of your \d+ existing events|You have no events yet/ }),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/rules-dry-run.png`, fullPage: true });
  await form.getByRole("button", { name: "Save rule" }).click();
  const rules = page.getByRole("region", { name: "Your rules" });
  await expect(rules.getByRole("row", { name: new RegExp(`Description contains taxi ${RUN}`) })).toContainText("Transport");
  await expect(page.getByText("No rules yet")).toHaveCount(0);
  await expectNoSeriousViolations(page, "Rules");
  await page.screenshot({ path: `${SHOTS}/rules.png`, fullPage: true });
  await expectFitsThePhone(page);
  await page.screenshot({ path: `${SHOTS}/rules-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The statement, through the imports page as it is.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Imports" }).click();
  await expect(page.getByRole("heading", { name: "Imports", level: 1 })).toBeVisible();
  const source = page.getByRole("form", { name: "Statement source" });
  await expect(source.getByLabel("Business").locator("option", { hasText: BUSINESS })).toBeAttached();
  await source.getByLabel("Business").selectOption({ label: BUSINESS });
  await expect(source.getByLabel("Preset").locator("option", { hasText: "Generic CSV" })).toBeAttached();
  await source.getByLabel("Preset").selectOption({ label: "Generic CSV" });
  await source.getByRole("button", { name: "Continue" }).click();
  const upload = page.getByRole("form", { name: "Upload the statement" });
  const csv = [
    "Date,Amount,Currency,Description",
    `${daysAgo(6)},-31.50,EUR,TAXI ${RUN} to the airport`,
    `${daysAgo(5)},-12.00,EUR,Lunch ${RUN}`,
  ].join("\n");
  await upload.getByLabel("Statement file").setInputFiles({ name: "rules.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await upload.getByRole("button", { name: "Upload and preview" }).click();

  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.locator("tbody tr")).toHaveCount(2);
  await expect(rows.getByLabel("Category of row 1")).toHaveValue("Transport");
  await expect(rows.getByLabel("Category of row 2")).toHaveValue("");
  await rows.getByLabel("Category of row 2").fill("Meals");
  await page.screenshot({ path: `${SHOTS}/rules-import-preview.png`, fullPage: true });
  await page.getByRole("button", { name: "Confirm import" }).click();
  const result = page.getByRole("region", { name: "Import complete" });
  await expect(result.getByTestId("import-inserted")).toHaveText("2");

  await result.getByRole("link", { name: "View events" }).click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  const filters = page.getByRole("region", { name: "Filters" });
  await expect(filters.getByLabel("Business").locator("option", { hasText: BUSINESS })).toBeAttached();
  await filters.getByLabel("Business").selectOption({ label: BUSINESS });
  await expect(page.getByRole("row", { name: new RegExp(`TAXI ${RUN}`) })).toContainText("Transport");
  await expect(page.getByRole("row", { name: new RegExp(`Lunch ${RUN}`) })).toContainText("Meals");
});

test("a business is renamed (a taken name is refused, any case) and archived", async ({ page, request }) => {
  // Names are unique per owner: a retry of this test gets names of its own.
  const tag = `${RUN}-${randomUUID().slice(0, 4)}`;
  const taken = `Taken Co ${tag}`;
  const renamed = `Renamed Co ${tag}`;
  await createBusiness(request, taken);
  await createBusiness(request, `Rename me ${tag}`);
  await signIn(page);
  await page.goto("/businesses");
  const row = page.getByRole("row", { name: new RegExp(`Rename me ${tag}`) });
  await row.getByRole("button", { name: `Rename Rename me ${tag}` }).click();
  const field = row.getByLabel(`New name for Rename me ${tag}`);
  await field.fill(taken.toUpperCase());
  await row.getByRole("button", { name: "Save name" }).click();
  await expect(row.getByText(/Is already used by another of your businesses/)).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await field.fill(renamed);
  await row.getByRole("button", { name: "Save name" }).click();
  const renamedRow = page.getByRole("row", { name: new RegExp(renamed) });
  await expect(renamedRow).toBeVisible();
  await renamedRow.getByRole("button", { name: `Archive ${renamed}` }).click();
  await expect(renamedRow.getByText("archived")).toBeVisible();
  await expect(renamedRow.getByRole("button", { name: `Restore ${renamed}` })).toBeVisible();
  // The panel refreshes its server-rendered parts after a change: axe looks once that settled.
  await expect(page).toHaveTitle(/Businesses/);
  await expectNoSeriousViolations(page, "Businesses");
  await page.screenshot({ path: `${SHOTS}/businesses-archive.png`, fullPage: true });
  await expectFitsThePhone(page);
  await page.screenshot({ path: `${SHOTS}/businesses-archive-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  // Archived businesses leave the pickers (the import's business select).
  await page.goto("/imports");
  const source = page.getByRole("form", { name: "Statement source" });
  await expect(source.getByLabel("Business").locator("option", { hasText: taken })).toBeAttached();
  await expect(source.getByLabel("Business").locator("option", { hasText: renamed })).toHaveCount(0);
});

test("a later rule moves up, before the earlier one", async ({ page }) => {
  await signIn(page);
  await page.goto("/rules");
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Look at").selectOption("counterparty");
  await form.getByLabel("Match").selectOption("equals");
  await form.getByLabel("Text").fill(`Cab Co ${RUN}`);
  await form.getByLabel("Category").fill("Taxi");
  await form.getByRole("button", { name: "Check matches" }).click();
  await form.getByRole("button", { name: "Save rule" }).click();
  const rules = page.getByRole("region", { name: "Your rules" });
  const body = rules.locator("tbody tr");
  await expect(body.last()).toContainText(`Counterparty equals Cab Co ${RUN}`);
  await rules.getByRole("button", { name: `Move up the rule Cab Co ${RUN}` }).click();
  await expect(body.first()).toContainText(`Counterparty equals Cab Co ${RUN}`);
  await expect(rules.getByRole("status")).toContainText(`“Cab Co ${RUN}” now runs before`);
  await expectNoSeriousViolations(page, "Rules (two rules)");
  // The explicit apply: the imported rows already have their categories, so it reports what it did.
  await rules.getByRole("button", { name: "Apply to existing events" }).click();
  await expect(rules.getByRole("status")).toContainText(/got a category|No existing event without a category matches/);

  // Editing a rule: loaded into the form, dry-run again, saved.
  await rules.getByRole("button", { name: `Edit the rule Cab Co ${RUN}` }).click();
  const edit = page.getByRole("form", { name: "Edit rule" });
  await expect(edit.getByLabel("Text")).toHaveValue(`Cab Co ${RUN}`);
  await edit.getByLabel("Category").fill("Cabs");
  await edit.getByRole("button", { name: "Check matches" }).click();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(body.first()).toContainText("Cabs");
  await expect(page.getByRole("form", { name: "New rule" })).toBeVisible();
});

test("a project is renamed and archived on its business's page, and leaves the rule's project picker", async ({
  page,
  request,
}) => {
  const company = `Projects Co ${RUN}-${randomUUID().slice(0, 4)}`;
  const businessId = await createBusiness(request, company);
  for (const name of ["Website", "Shop"]) {
    const response = await request.post(`/v1/businesses/${businessId}/projects`, {
      headers: { Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Idempotency-Key": randomUUID() },
      data: { name },
    });
    expect(response.status()).toBe(201);
  }
  await signIn(page);
  await page.goto(`/businesses/${businessId}/projects`);
  const projects = page.getByRole("region", { name: "Projects", exact: true });
  const shop = projects.getByRole("row", { name: /Shop/ });
  await shop.getByRole("button", { name: "Rename Shop" }).click();
  await shop.getByLabel("New name for Shop").fill("WEBSITE");
  await shop.getByRole("button", { name: "Save name" }).click();
  await expect(shop.getByText(/Is already used by another project of this business/)).toBeVisible();
  await shop.getByLabel("New name for Shop").fill("Storefront");
  await shop.getByRole("button", { name: "Save name" }).click();
  const storefront = projects.getByRole("row", { name: /Storefront/ });
  await storefront.getByRole("button", { name: "Archive Storefront" }).click();
  await expect(storefront.getByText("archived")).toBeVisible();
  await expect(page).toHaveTitle(/Projects Co/);
  await expectNoSeriousViolations(page, "Business page with projects");

  await page.goto("/rules");
  const picker = page.getByRole("form", { name: "New rule" }).getByLabel("Project (optional)");
  await expect(picker.locator("option", { hasText: `${company} / Website` })).toBeAttached();
  await expect(picker.locator("option", { hasText: "Storefront" })).toHaveCount(0);
});
