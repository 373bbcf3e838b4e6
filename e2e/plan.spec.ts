// The owner's plan in Settings (pinned-wave2 §5.2): the static owner of the e2e server is on
// business (unlimited; Free's preview names what is over, Pro's too or says it is allowed); a new owner signed
// in by mail is on free: labelled usage bars ("1 of 3 businesses"), the panel's business form
// says clearly when the plan's limit is reached, the Pro trial starts from its preview's button,
// and a refused switch (trial used, no checkout) is shown in that plan's card. 390 px and axe.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { apiSession, asBearer, E2E_OWNER_TOKEN, seriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots/plan";
const PHONE = { width: 390, height: 844 };

async function fitsThePhone(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

function planCard(page: Page) {
  return page.getByRole("region", { name: "Plan" });
}

test("the static owner's plan is business: unlimited usage, Free's preview names what is over", async ({ page, request }) => {
  test.setTimeout(120_000);
  for (let i = 0; i < 4; i++) {
    const created = await asBearer(request, E2E_OWNER_TOKEN, "POST", "/v1/businesses", {
      name: `Plan Co ${RUN} ${i}`,
      currency: "EUR",
    });
    expect(created.status()).toBe(201);
  }
  await signIn(page);
  // The other specs add businesses to the static owner while this one runs: the page's count lies
  // between the API's counts before and after the page was read, and Free and Pro judge that count.
  const usage = async () =>
    ((await (await asBearer(request, E2E_OWNER_TOKEN, "GET", "/v1/plan")).json()) as { data: { usage: { businesses: number } } })
      .data.usage.businesses;
  const before = await usage();
  await page.goto("/settings");
  const card = planCard(page);
  await expect(card.getByTestId("plan-name")).toHaveText("Business");
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  const unlimited = card.getByText(/^\d+ businesses \(unlimited\)$/);
  await expect(unlimited).toBeVisible();
  const used = Number(/^\d+/.exec(await unlimited.innerText())![0]);
  expect(used).toBeGreaterThanOrEqual(before);
  expect(used).toBeLessThanOrEqual(await usage());

  const free = card.getByRole("region", { name: /^Free/ });
  await expect(free.getByText("Not available now")).toBeVisible();
  await expect(free.getByText(`${used} businesses, Free allows 3`, { exact: true })).toBeVisible();
  // Pro's answer depends on how many businesses the other specs gave the static owner (Pro allows 25).
  const pro = card.getByRole("region", { name: /^Pro/ });
  if (used > 25) {
    await expect(pro.getByText("Not available now")).toBeVisible();
    await expect(pro.getByText(`${used} businesses, Pro allows 25`)).toBeVisible();
  } else {
    await expect(pro.getByText("Allowed", { exact: true })).toBeVisible();
    await expect(pro.getByText(/Starts a free 14-day trial/)).toBeVisible();
  }

  expect(await seriousViolations(page)).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SHOTS}/business-desktop.png` });
  await page.setViewportSize(PHONE);
  await fitsThePhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await card.screenshot({ path: `${SHOTS}/business-phone.png` });
});

test("a new owner is on free: usage bars, the limit in the business form, the Pro trial, a refused switch in place", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await apiSession(request, `plan-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  for (let i = 0; i < 3; i++) {
    const created = await asBearer(request, token, "POST", "/v1/businesses", { name: `Mine ${i}`, currency: "EUR" });
    expect(created.status()).toBe(201);
  }
  await signIn(page, token);

  await test.step("the business form says the plan's limit is reached", async () => {
    await page.goto("/businesses");
    await page.getByLabel("Name", { exact: true }).fill("One too many");
    await page.getByLabel("Currency", { exact: true }).selectOption("EUR");
    await page.getByRole("button", { name: "Create business" }).click();
    await expect(page.getByRole("form", { name: "New business" }).getByRole("alert")).toContainText(
      "Your Free plan allows 3 businesses, and 3 are in use.",
    );
    await page.screenshot({ path: `${SHOTS}/limit-in-form.png` });
  });

  const card = planCard(page);
  await test.step("Settings shows the free plan's usage as labelled bars", async () => {
    await page.goto("/settings");
    await expect(card.getByTestId("plan-name")).toHaveText("Free");
    const bar = card.getByRole("progressbar", { name: "3 of 3 businesses" });
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute("max", "3");
    await expect(card.getByRole("progressbar", { name: "0 of 2 agents" })).toBeVisible();
    await expect(card.getByRole("progressbar", { name: "0 of 1,000 manual events this month" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await card.screenshot({ path: `${SHOTS}/free-desktop.png` });
  });

  await test.step("the Pro preview's button starts the trial", async () => {
    await card.getByRole("region", { name: /^Pro/ }).getByRole("button", { name: "Switch to Pro" }).click();
    await expect(card.getByTestId("plan-name")).toHaveText("Pro");
    await expect(card.getByText("Trial", { exact: true })).toBeVisible();
    await expect(card.getByText("Trial ends", { exact: true })).toBeVisible();
    await expect(card.getByRole("progressbar", { name: "3 of 25 businesses" })).toBeVisible();
  });

  await test.step("back to free, then Pro again is refused in its card (the trial was used)", async () => {
    await card.getByRole("region", { name: /^Free/ }).getByRole("button", { name: "Switch to Free" }).click();
    await expect(card.getByTestId("plan-name")).toHaveText("Free");
    const pro = card.getByRole("region", { name: /^Pro/ });
    await expect(pro.getByText(/Your trial was used/)).toBeVisible();
    await pro.getByRole("button", { name: "Switch to Pro" }).click();
    await expect(pro.getByRole("alert")).toContainText("checkout");
    await expect(card.getByTestId("plan-name")).toHaveText("Free");
    await page.setViewportSize(PHONE);
    await fitsThePhone(page);
    expect(await seriousViolations(page)).toEqual([]);
    await card.screenshot({ path: `${SHOTS}/free-refused-phone.png` });
  });
});
