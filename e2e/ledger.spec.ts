// Ledger and currencies in the panel: a manual expense through the events form (major units
// converted exactly), its listing with the base amount and rate, and a subscription whose cost
// is split 60/40 over two projects with the allocation editor.
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support";

test.describe.configure({ mode: "serial" });

const BUSINESS = "Ledger Works";

async function createBusinessWithProjects(page: Page, projects: string[]) {
  await page.goto("/businesses");
  await page.getByLabel("Name", { exact: true }).fill(BUSINESS);
  await page.getByLabel("Currency", { exact: true }).selectOption("EUR");
  await page.getByRole("button", { name: "Create business" }).click();
  await expect(page.getByRole("status")).toHaveText(`${BUSINESS} was added.`);
  await page
    .getByRole("row", { name: new RegExp(BUSINESS) })
    .getByRole("link", { name: BUSINESS })
    .click();
  await expect(page.getByRole("heading", { name: BUSINESS, level: 1 })).toBeVisible();
  await page.getByRole("navigation", { name: "Business sections" }).getByRole("link", { name: "Projects" }).click();
  for (const project of projects) {
    await page.getByLabel("Project name").fill(project);
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page.getByRole("row", { name: new RegExp(project) })).toBeVisible();
  }
}

test("an expense entered in major units is listed with its base amount and rate", async ({ page }) => {
  await signIn(page);
  await createBusinessWithProjects(page, ["Ledger Alpha", "Ledger Beta"]);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "New event" });
  await expect(form.getByLabel("Scope").locator("option", { hasText: BUSINESS }).first()).toBeAttached();

  await form.getByLabel("Scope").selectOption({ label: BUSINESS });
  await form.getByLabel("Amount").fill("12.34");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByLabel("Category").fill("software");
  await form.getByLabel("Description").fill("Ledger test licence");

  // The server's validation answer sits beside its field: an expense cannot be in the future.
  await form.getByLabel("Date").fill("2099-01-01");
  await form.getByRole("button", { name: "Add expense" }).click();
  await expect(form.getByLabel("Date")).toHaveAttribute("aria-invalid", "true");

  // More decimals than the currency has are refused before anything is sent (never rounded).
  await form.getByLabel("Amount").fill("12.345");
  await form.getByRole("button", { name: "Add expense" }).click();
  await expect(form.getByText("EUR has 2 decimals: enter at most 2.")).toBeVisible();

  const today = await page.evaluate(() => {
    const now = new Date();
    return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  });
  await form.getByLabel("Amount").fill("12.34");
  await form.getByLabel("Date").fill(today);
  await form.getByRole("button", { name: "Add expense" }).click();
  await expect(form.getByRole("status")).toHaveText("The expense was added.");

  const row = page.getByRole("row", { name: /Ledger test licence/ });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("event-amount")).toHaveText("\u2212€12.34");
  await expect(row.getByTestId("event-base-amount")).toHaveText(/\d/);
  await expect(row).toContainText(/rate \d+\.\d{8} \((identity|mock|ecb), \d{4}-\d{2}-\d{2}\)/);
  await expect(row).toContainText(BUSINESS);
  // The source in words (issue 37), not its code.
  await expect(row.getByTestId("event-source")).toHaveText("Entered by hand");

  // A revenue in another currency shows its conversion.
  await form.getByRole("button", { name: "Revenue", exact: true }).click();
  await form.getByLabel("Scope").selectOption({ label: `${BUSINESS} / Ledger Alpha` });
  await form.getByLabel("Amount").fill("250");
  await form.getByLabel("Currency").selectOption("USD");
  await form.getByLabel("Description").fill("Ledger test invoice");
  await form.getByRole("button", { name: "Add revenue" }).click();
  const revenue = page.getByRole("row", { name: /Ledger test invoice/ });
  await expect(revenue.getByTestId("event-amount")).toHaveText("+$250.00");
  await expect(revenue).toContainText("Ledger Alpha");

  // The filters drive the list query.
  await page.getByLabel("Type", { exact: true }).selectOption("revenue");
  await expect(page.getByRole("row", { name: /Ledger test licence/ })).toHaveCount(0);
  await expect(revenue).toBeVisible();
  await page.getByLabel("Type", { exact: true }).selectOption("");
  await expect(row).toBeVisible();

  await page.screenshot({ path: "test-results/screenshots/events.png", fullPage: true });
});

test("a subscription's cost is split 60/40 over two projects", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Subscriptions" }).click();
  await expect(page.getByRole("heading", { name: "Subscriptions", level: 1 })).toBeVisible();

  const form = page.getByRole("form", { name: "New subscription" });
  await expect(form.getByLabel("Scope").locator("option", { hasText: BUSINESS }).first()).toBeAttached();
  await form.getByLabel("Name").fill("Ledger design suite");
  await form.getByLabel("Scope").selectOption({ label: BUSINESS });
  await form.getByLabel("Amount").fill("49.99");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByLabel("Interval").selectOption("month");
  await form.getByLabel("Next charge").fill("2026-12-01");
  await form.getByRole("button", { name: "Create subscription" }).click();
  await expect(form.getByRole("status")).toHaveText("Ledger design suite was added.");

  const row = page.getByRole("row", { name: /Ledger design suite/ });
  await expect(row).toContainText("€49.99 / month");
  await expect(row).toContainText("2026-12-01");
  await row.getByRole("button", { name: "Allocate Ledger design suite" }).click();

  const editor = page.getByRole("form", { name: "Allocations" });
  const sum = editor.getByTestId("allocation-sum");
  await editor.getByLabel("Share of Ledger Alpha (%)").fill("60");
  await expect(sum).toContainText("40.00 % left");
  await expect(sum).toHaveClass(/pill-warning/);

  // A sum that is not 100 % is refused by the server (422 allocation_sum_invalid), clearly.
  await editor.getByRole("button", { name: "Save allocations" }).click();
  await expect(editor.getByRole("alert")).toContainText("must add up to exactly 100.00 %");

  await editor.getByLabel("Share of Ledger Beta (%)").fill("40");
  await expect(sum).toHaveText("100.00 %");
  await expect(sum).toHaveClass(/pill-success/);
  await editor.getByRole("button", { name: "Save allocations" }).click();
  await expect(editor.getByRole("status")).toHaveText("Allocations saved.");
  await expect(row).toContainText("60.00 % / 40.00 %");
  await page.screenshot({ path: "test-results/screenshots/allocations.png", fullPage: true });

  // Stored, not only shown.
  await page.reload();
  await page
    .getByRole("row", { name: /Ledger design suite/ })
    .getByRole("button", { name: "Allocate Ledger design suite" })
    .click();
  await expect(page.getByLabel("Share of Ledger Alpha (%)")).toHaveValue("60.00");
  await expect(page.getByLabel("Share of Ledger Beta (%)")).toHaveValue("40.00");
  await expect(page.getByTestId("allocation-sum")).toHaveText("100.00 %");
});
