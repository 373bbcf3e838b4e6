// The owner panel's first slice in a real browser: sign-in with the static owner token, the
// businesses list and form, a business's projects, sign-out. The tests share one fresh
// database and run in order (the first one sees the empty state).
import { expect, test } from "@playwright/test";
import { E2E_OWNER_TOKEN, openTokenForm, ownerEmail, SAME_ORIGIN, signIn } from "./support";

test.describe.configure({ mode: "serial" });

test("a signed-out visit to the panel lands on the sign-in page", async ({ page }) => {
  // The front page is the landing page for visitors, with its way in.
  await page.goto("/");
  await page.getByRole("link", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/businesses");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Sign in to your back office" })).toBeVisible();
  await expect(page.getByLabel("Email")).toBeVisible();
  // AUTH_MODE=static: the owner token form is offered too, folded away.
  await expect(page.getByText("Use an owner token")).toBeVisible();
  await expect(page.getByLabel("Owner token")).toBeHidden();
});

test("a wrong token shows an error and signs nobody in", async ({ page }) => {
  await page.goto("/sign-in");
  await openTokenForm(page);
  await page.getByLabel("Owner token").fill("not-the-owner-token-at-all");
  await page.getByRole("button", { name: "Sign in with token" }).click();
  await expect(page.getByText("That token is not valid. Check it and try again.")).toBeVisible();
  await expect(page.getByLabel("Owner token")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.screenshot({ path: "test-results/screenshots/sign-in-error.png" });
  await page.goto("/businesses");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("the owner creates a business and a project, then signs out", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Businesses" }).click();
  await expect(page.getByRole("heading", { name: "Businesses", level: 1 })).toBeVisible();
  await expect(page.getByTestId("owner-email")).toHaveText(ownerEmail());
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Businesses" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByText("No businesses yet")).toBeVisible();

  // The server's validation answer appears beside the field it concerns.
  await page.getByRole("button", { name: "Create business" }).click();
  await expect(page.getByText("Must not be empty.")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Name", { exact: true }).fill("Atlas Studio");
  await page.getByLabel("Currency", { exact: true }).selectOption("EUR");
  await page.getByRole("button", { name: "Create business" }).click();
  await expect(page.getByRole("status")).toHaveText("Atlas Studio was added.");

  const row = page.getByRole("row", { name: /Atlas Studio/ });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(1)).toHaveText("EUR");
  await expect(page.getByText("No businesses yet")).toHaveCount(0);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");

  await page.screenshot({ path: "test-results/screenshots/businesses.png", fullPage: true });

  await row.getByRole("link", { name: "Atlas Studio" }).click();
  await expect(page).toHaveURL(/\/businesses\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Atlas Studio", level: 1 })).toBeVisible();
  // Projects are managed on the business's Projects tab.
  await page.getByRole("navigation", { name: "Business sections" }).getByRole("link", { name: "Projects" }).click();
  await expect(page).toHaveURL(/\/businesses\/[0-9a-f-]{36}\/projects$/);
  await expect(page.getByText("No projects yet")).toBeVisible();

  await page.getByLabel("Project name").fill("Website redesign");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("row", { name: /Website redesign/ })).toBeVisible();
  await expect(page.getByText("No projects yet")).toHaveCount(0);

  // The project is stored, not only shown: a fresh load still lists it.
  await page.reload();
  await expect(page.getByRole("row", { name: /Website redesign/ })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/business-detail.png", fullPage: true });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/businesses");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("an unknown currency code is refused next to its field", async ({ page }) => {
  await signIn(page);
  await page.goto("/businesses");
  await page.getByLabel("Name", { exact: true }).fill("Nowhere Ltd");
  await page.getByLabel("Currency", { exact: true }).selectOption("other");
  await page.getByLabel("Other currency code").fill("xyz");
  await page.getByRole("button", { name: "Create business" }).click();
  await expect(page.getByText("XYZ is not an ISO 4217 currency code.")).toBeVisible();
  await expect(page.getByLabel("Other currency code")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("row", { name: /Nowhere Ltd/ })).toHaveCount(0);

  // Free entry of a real code works.
  await page.getByLabel("Other currency code").fill("THB");
  await page.getByRole("button", { name: "Create business" }).click();
  await expect(page.getByRole("row", { name: /Nowhere Ltd/ })).toContainText("THB");
});

test("the list pages with Load more", async ({ page }) => {
  await signIn(page);
  await page.goto("/businesses");
  // Fill the list through the panel's own tRPC endpoint (the browser context's cookie).
  for (let i = 1; i <= 20; i += 1) {
    const response = await page.request.post("/api/trpc/businesses.create", {
      headers: SAME_ORIGIN,
      data: { name: `Batch business ${String(i).padStart(2, "0")}`, currency: "USD" },
    });
    expect(response.status()).toBe(200);
  }
  await page.reload();
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(20);
  await expect(page.getByRole("row", { name: /Atlas Studio/ })).toHaveCount(0);

  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(22);
  await expect(page.getByRole("row", { name: /Atlas Studio/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
});

test("Settings shows the owner's profile", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  const account = page.getByRole("region", { name: "Account" });
  await expect(account.getByRole("definition").first()).toHaveText(ownerEmail());
  await expect(page.getByRole("form", { name: "Profile and preferences" }).getByLabel("Time zone")).toHaveValue("UTC");
  await page.screenshot({ path: "test-results/screenshots/settings.png", fullPage: true });
});

test("an unknown or malformed business id shows the not-found page", async ({ page }) => {
  await signIn(page);
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
    const response = await page.goto(`/businesses/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Business not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sign-in form still signs in, and shows a wrong token's error", async ({ page }) => {
    await page.goto("/sign-in");
    await openTokenForm(page);
    await page.getByLabel("Owner token").fill("not-the-owner-token-at-all");
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect(page).toHaveURL(/\/sign-in\?error=invalid_token$/);
    // The failed token form comes back open, its error beside the field.
    await expect(page.getByText("That token is not valid. Check it and try again.")).toBeVisible();

    await page.getByLabel("Owner token").fill(E2E_OWNER_TOKEN);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect(page).toHaveURL(/\/overview$/);
    await page.goto("/businesses");
    await expect(page.getByRole("row", { name: /Atlas Studio/ })).toHaveCount(0); // on page 2
    await expect(page.locator("tbody tr")).toHaveCount(20);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});

test("the panel endpoints refuse callers without the cookie or from another site", async ({ request, page }) => {
  const anonymous = await request.post("/api/trpc/businesses.create", {
    headers: SAME_ORIGIN,
    data: { name: "Nope", currency: "EUR" },
  });
  expect(anonymous.status()).toBe(401);
  const body = (await anonymous.json()) as { error: { data: { appCode: string } } };
  expect(body.error.data.appCode).toBe("unauthenticated");

  const foreignSignIn = await request.post("/api/panel/sign-in", {
    headers: { origin: "https://evil.example" },
    data: { token: E2E_OWNER_TOKEN },
  });
  expect(foreignSignIn.status()).toBe(403);
  expect(foreignSignIn.headers()["set-cookie"]).toBeUndefined();

  await signIn(page);
  const foreignWrite = await page.request.post("/api/trpc/businesses.create", {
    headers: { origin: "https://evil.example" },
    data: { name: "Cross-site", currency: "EUR" },
  });
  expect(foreignWrite.status()).toBe(403);

  // The CSV export audits itself, so a link on another site must not start it.
  const foreignExport = await page.request.get("/api/panel/events/export", { headers: { "sec-fetch-site": "cross-site" } });
  expect(foreignExport.status()).toBe(403);
  const ownExport = await page.request.get("/api/panel/events/export", { headers: { "sec-fetch-site": "same-origin" } });
  expect(ownExport.status()).toBe(200);
});
