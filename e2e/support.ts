// Shared by the browser tests and playwright.config.ts.
import { expect, type Page } from "@playwright/test";

/** STATIC_OWNER_TOKEN of the server the e2e run starts. */
export const E2E_OWNER_TOKEN = "e2e-owner-token-0123456789";

/** The static owner's email of this run (set by playwright.config.ts, new every run). */
export function ownerEmail(): string {
  const email = process.env.E2E_OWNER_EMAIL;
  if (!email) throw new Error("E2E_OWNER_EMAIL is not set; run the tests through playwright.config.ts");
  return email;
}

export async function signIn(page: Page, token = E2E_OWNER_TOKEN): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Owner token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/businesses$/);
}
