// Makes the landing page's picture of the Overview (public/landing/overview-*.webp): a new owner
// with two businesses, cash, revenue, costs and commitments seeded through the REST API, the
// Overview at 1280 x 800, written as WebP at two widths. Not a test: playwright.config.ts
// collects it only when LANDING_SHOT=1:
//   LANDING_SHOT=1 E2E_PORT=3202 npx playwright test e2e/landing-shot.spec.ts
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { addDays, todayIn } from "../lib/days";
import { apiSession, asBearer, signIn } from "./support";

test("the Overview, for the landing page", async ({ page, request }) => {
  const token = await apiSession(request, `founder-${randomUUID().slice(0, 8)}@e2e.test`);
  const post = async (path: string, body: unknown, status = 201) => {
    const answer = await asBearer(request, token, "POST", path, body);
    expect(answer.status(), `POST ${path}: ${await answer.text()}`).toBe(status);
    return (await answer.json()) as { data: { id: string } };
  };
  const me = (await (await asBearer(request, token, "GET", "/v1/me")).json()) as { data: { timezone: string } };
  const today = todayIn(me.data.timezone);
  const northwind = (await post("/v1/businesses", { name: "Northwind Studio", currency: "EUR" })).data.id;
  const harbor = (await post("/v1/businesses", { name: "Harbor Labs", currency: "USD" })).data.id;
  const website = (await post(`/v1/businesses/${northwind}/projects`, { name: "Website" })).data.id;
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  await post("/v1/cash-snapshots", {
    business_id: northwind,
    amount_minor: 4_250_000,
    currency: "EUR",
    as_of: hourAgo,
    payload: { account_id: "main" },
  });
  await post("/v1/cash-snapshots", {
    business_id: harbor,
    amount_minor: 1_800_000,
    currency: "USD",
    as_of: hourAgo,
    payload: { account_id: "main" },
  });
  const events: Array<[string, Record<string, string>, number, string, number, string]> = [
    ["/v1/revenues", { project_id: website }, 820_000, "EUR", -3, "Website launch"],
    ["/v1/revenues", { business_id: northwind }, 310_000, "EUR", -17, "Retainer"],
    ["/v1/revenues", { business_id: harbor }, 450_000, "USD", -10, "Pilot"],
    ["/v1/revenues", { business_id: harbor }, 260_000, "USD", -24, "Licences"],
    ["/v1/expenses", { business_id: northwind }, 285_050, "EUR", -5, "Contractors"],
    ["/v1/expenses", { business_id: northwind }, 60_000, "GBP", -20, "Conference"],
    ["/v1/expenses", { business_id: harbor }, 199_900, "USD", -1, "Cloud"],
    ["/v1/expenses", { business_id: harbor }, 120_000, "USD", -12, "Ads"],
    ["/v1/planned-expenses", { business_id: northwind }, 250_000, "EUR", 7, "Office lease"],
    ["/v1/planned-expenses", { business_id: harbor }, 90_000, "USD", 12, "Annual audit"],
  ];
  for (const [path, scope, amount_minor, currency, days, description] of events)
    await post(path, { ...scope, amount_minor, currency, occurred_on: addDays(today, days), description });
  await post("/v1/subscriptions", {
    business_id: northwind,
    name: "Design suite",
    amount_minor: 4_999,
    currency: "EUR",
    billing_interval: "month",
    next_charge_on: addDays(today, 5),
  });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, token);
  await expect(page.getByTestId("businesses-table")).toBeVisible();
  // The run's generated address would read oddly in a picture.
  await page.getByTestId("owner-email").evaluate((element) => (element.textContent = "founder@northwind.example"));
  const png = await page.screenshot();
  fs.mkdirSync("public/landing", { recursive: true });
  for (const width of [1280, 640]) {
    await sharp(png).resize({ width }).webp({ quality: 78 }).toFile(`public/landing/overview-${width}.webp`);
  }
});
