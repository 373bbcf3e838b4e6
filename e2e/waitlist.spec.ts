// The waitlist in a real browser (issue 19): a signed-out visitor joins from the landing page
// with JavaScript (in place: every error at once, then the confirmation) and without it (a plain
// form post: the errors on the page again, then the thank-you page; past the per-IP limit, its
// message); the owner (a reader: the static owner) sees the entries with their sources on the
// Waitlist page and downloads the CSV; another owner is told the waitlist is not theirs; a page
// on a second origin uses the embeddable script and is accepted only from LANDING_ORIGIN.
// axe on each page at 390 px; screenshots in test-results/screenshots/waitlist/.
import fs from "node:fs";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import {
  apiSession,
  asBearer,
  E2E_BASE_URL,
  E2E_LANDING_ORIGIN,
  E2E_LANDING_PORT,
  E2E_OWNER_TOKEN,
  expectNoSeriousViolations,
  signIn,
} from "./support";

// All of this spec's joins come from one address, whose budget is 5 a minute and 20 a day: the
// first four tests spend exactly 5, the limit test the rest of its minute.
test.describe.configure({ mode: "serial" });

const RUN = randomUUID().slice(0, 8);
const SHOTS = "test-results/screenshots/waitlist";
const PHONE = { width: 390, height: 844 };

type TEntry = { email: string; source: string | null; created_at: string };

/**
 * axe needs a script in the page, so for a page seen without JavaScript it looks at the same
 * address, with the same cookies (the form's errors), in a browser that runs scripts.
 */
async function expectNoSeriousViolationsAsServed(browser: Browser, noScript: BrowserContext, url: string, label: string) {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: PHONE });
  await context.addCookies(await noScript.cookies());
  const page = await context.newPage();
  await page.goto(url);
  await expectNoSeriousViolations(page, label);
  await context.close();
}

async function expectFitsThePhone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The waitlist as the owner reads it over /v1 (200 newest). */
async function entries(request: APIRequestContext): Promise<TEntry[]> {
  const answer = await asBearer(request, E2E_OWNER_TOKEN, "GET", "/v1/waitlist?limit=200");
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: TEntry[] }).data;
}

const emailOf = (label: string) => `${label}-${RUN}@visitors.example`;

test("a visitor joins from the landing page with JavaScript: every error at once, then the confirmation", async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  // The landing page lives under the panel's nonce-based CSP (proxy.ts): no violation, every script nonced.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const longSource = "s".repeat(65);
  await page.goto(`/?utm_source=${longSource}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("The back office for founders");
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toHaveAttribute("href", "/sign-in");
  // The picture of the Overview is there, loaded, and described.
  const picture = page.getByRole("img", { name: /The Overview page of the panel/ });
  await expect(picture).toBeVisible();
  expect(await picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  // The honeypot is in the form for bots, and hidden from people and assistive technology.
  await expect(page.locator('input[name="website"]')).toHaveCount(1);
  await expect(page.locator('input[name="source"]')).toHaveValue(longSource);
  const join = page.getByRole("region", { name: "Join the waitlist" });
  await expect(join.getByRole("textbox")).toHaveCount(1);
  await expectFitsThePhone(page);
  await expectNoSeriousViolations(page, "the landing page");
  await shot(page, "landing-390");

  // A bad address and an overlong source tag: both errors at once, the email's beside its field.
  await join.getByLabel("Email").fill("not-an-address");
  await join.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(join.getByText("Email must be an email address.")).toBeVisible();
  await expect(join.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(join.getByRole("alert").filter({ hasText: "source tag must be at most 64 characters" })).toBeVisible();
  await expectNoSeriousViolations(page, "the landing page with errors");
  await shot(page, "landing-errors-js-390");

  await page.goto(`/?utm_source=js-${RUN}`);
  await join.getByLabel("Email").fill(`  ${emailOf("JS").toUpperCase()} `);
  await join.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page.getByTestId("waitlist-confirmation")).toContainText("You are on the list");
  await expect(page).toHaveURL(new RegExp(`/\\?utm_source=js-${RUN}$`));
  await expectNoSeriousViolations(page, "the landing page's confirmation");
  await shot(page, "landing-joined-js-390");
  const nonces = await page
    .locator("script")
    .evaluateAll((scripts) => scripts.map((script) => (script as HTMLScriptElement).nonce));
  expect(nonces.length).toBeGreaterThan(0);
  expect(nonces.filter((nonce) => nonce === "")).toEqual([]);
  expect(violations).toEqual([]);
  const stored = (await entries(request)).find((entry) => entry.email === emailOf("js"));
  expect(stored?.source).toBe(`js-${RUN}`);
});

test("a visitor joins without JavaScript: a plain form post, the errors in place, then the thank-you page", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: E2E_BASE_URL, viewport: PHONE });
  const page = await context.newPage();
  await page.goto(`/?utm_source=nojs-${RUN}`);
  const join = page.getByRole("region", { name: "Join the waitlist" });
  await join.getByLabel("Email").fill("still-not-an-address");
  await join.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page).toHaveURL(/\/\?waitlist=check#join$/);
  await expect(join.getByText("Email must be an email address.")).toBeVisible();
  await expect(join.getByLabel("Email")).toHaveValue("still-not-an-address");
  await expect(join.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator('input[name="source"]')).toHaveValue(`nojs-${RUN}`);
  await expectNoSeriousViolationsAsServed(browser, context, page.url(), "the landing page with errors, without JavaScript");
  await shot(page, "landing-errors-nojs-390");

  await join.getByLabel("Email").fill(emailOf("nojs"));
  await join.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page).toHaveURL(/\/joined$/);
  await expect(page.getByRole("heading", { name: "You are on the list", level: 1 })).toBeVisible();
  await expectFitsThePhone(page);
  await expectNoSeriousViolationsAsServed(browser, context, page.url(), "the thank-you page");
  await shot(page, "joined-nojs-390");
  expect((await entries(request)).find((entry) => entry.email === emailOf("nojs"))?.source).toBe(`nojs-${RUN}`);

  // The form's route takes posts from this site's pages (and LANDING_ORIGIN's) only.
  const foreign = await request.post("/api/waitlist", {
    headers: { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" },
    form: { email: emailOf("foreign") },
  });
  expect(foreign.status()).toBe(403);
  expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("csrf_rejected");
  expect((await entries(request)).some((entry) => entry.email === emailOf("foreign"))).toBe(false);
  await context.close();
});

/** A tiny site on 127.0.0.1:`port` serving the waitlist snippet, pointed at the e2e server. */
async function hostSite(port: number): Promise<http.Server> {
  const snippet = fs.readFileSync("public/waitlist-snippet.html", "utf8").replaceAll("https://service.example", E2E_BASE_URL);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another site</title></head><body><main><h1>Another site</h1>${snippet}</main></body></html>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

test("the embeddable form posts across origins, accepted only from LANDING_ORIGIN", async ({ page, request }) => {
  const landing = await hostSite(E2E_LANDING_PORT);
  const other = await hostSite(E2E_LANDING_PORT + 1);
  try {
    await page.goto(`${E2E_LANDING_ORIGIN}/?utm_source=embed-${RUN}`);
    await expect(page.locator('input[name="source"]')).toHaveValue(`embed-${RUN}`);
    await page.getByLabel("Email").fill(emailOf("embed"));
    await page.getByRole("button", { name: "Join the waitlist" }).click();
    await expect(page.getByRole("status")).toContainText("you are on the list");
    await expect(page.locator("form[data-waitlist]")).toBeHidden();
    expect((await entries(request)).find((entry) => entry.email === emailOf("embed"))?.source).toBe(`embed-${RUN}`);

    // Another origin: the browser's preflight gets no CORS answer, so the post is never sent.
    const posts: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("/v1/waitlist") && response.request().method() === "POST") posts.push(response.status());
    });
    await page.goto(`http://127.0.0.1:${E2E_LANDING_PORT + 1}/?utm_source=blocked-${RUN}`);
    await page.getByLabel("Email").fill(emailOf("blocked"));
    await page.getByRole("button", { name: "Join the waitlist" }).click();
    await expect(page.getByRole("alert")).toHaveText("We could not reach the waitlist. Check your connection and try again.");
    expect(posts).toEqual([]);
    expect((await entries(request)).some((entry) => entry.email === emailOf("blocked"))).toBe(false);
  } finally {
    landing.close();
    other.close();
  }
});

test("the owner sees the entries and their sources on the Waitlist page and downloads the CSV", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.goto("/waitlist");
  await expect(page.getByRole("heading", { name: "Waitlist", level: 1 })).toBeVisible();
  // Its reader finds it in the sidebar (behind the menu button on a phone).
  await expect(page.locator('nav[aria-label="Main"] a[href="/waitlist"]')).toHaveCount(1);
  const sources = page.getByRole("region", { name: "By source" });
  for (const source of [`js-${RUN}`, `nojs-${RUN}`, `embed-${RUN}`]) {
    const item = sources.getByRole("listitem").filter({ has: page.getByText(source, { exact: true }) });
    await expect(item.locator(".waitlist-source-count")).toHaveText("1");
  }
  const list = page.getByRole("region", { name: "Newest entries" });
  for (const label of ["js", "nojs", "embed"]) {
    const row = list.getByRole("row").filter({ has: page.getByText(emailOf(label), { exact: true }) });
    await expect(row.getByText(`${label}-${RUN}`, { exact: true })).toBeVisible();
  }
  await expectFitsThePhone(page);
  await expectNoSeriousViolations(page, "the Waitlist page");
  await shot(page, "panel-waitlist-390");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^waitlist-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await file.path())!, "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe("email,source,created_at");
  for (const label of ["js", "nojs", "embed"]) {
    expect(lines.some((line) => line.startsWith(`${emailOf(label)},${label}-${RUN},`))).toBe(true);
  }
  expect(lines.some((line) => line.includes(emailOf("blocked")))).toBe(false);

  // Another owner is told the waitlist is not theirs to read.
  const other = await apiSession(request, `not-a-reader-${RUN}@e2e.test`);
  await page.context().clearCookies();
  await signIn(page, other);
  // The sidebar does not offer it to them; the address still answers plainly.
  await expect(page.locator('nav[aria-label="Main"] a[href="/overview"]')).toHaveCount(1);
  await expect(page.locator('nav[aria-label="Main"] a[href="/waitlist"]')).toHaveCount(0);
  await page.goto("/waitlist");
  await expect(page.getByRole("heading", { name: "The waitlist is not yours to read" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);
  await expectNoSeriousViolations(page, "the Waitlist page of a non-reader");
  await shot(page, "panel-waitlist-not-reader-390");
});

test("past the per-IP limit the form without JavaScript says when to try again", async ({ browser, request }) => {
  // The snippet's plain form on LANDING_ORIGIN may post here too (answered like ours: a page, never csrf_rejected).
  const fromLanding = await request.post("/api/waitlist", {
    headers: { origin: E2E_LANDING_ORIGIN, "sec-fetch-site": "cross-site" },
    form: { email: emailOf("landing-form"), source: `landing-form-${RUN}` },
    maxRedirects: 0,
  });
  expect(fromLanding.status()).toBe(303);
  expect(fromLanding.headers()["location"]).toMatch(/^\/(joined|\?waitlist=check#join)$/);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: E2E_BASE_URL, viewport: PHONE });
  const page = await context.newPage();
  const join = page.getByRole("region", { name: "Join the waitlist" });
  // Five a minute per address: the earlier tests spent some of this minute; at most a new minute's five more.
  for (let attempt = 0; attempt < 11; attempt++) {
    await page.goto("/");
    await join.getByLabel("Email").fill(emailOf(`limit${attempt}`));
    await join.getByRole("button", { name: "Join the waitlist" }).click();
    await page.waitForURL(/\/(joined|\?waitlist=check#join)$/);
    if (page.url().includes("waitlist=check")) break;
  }
  await expect(join.getByRole("alert")).toContainText(/Too many sign-ups from your network\. Try again in \d+ seconds\./);
  await expect(join.getByLabel("Email")).toHaveValue(/^limit\d+-/);
  await expectNoSeriousViolationsAsServed(browser, context, page.url(), "the landing page past the limit");
  await shot(page, "landing-rate-limited-nojs-390");
  await context.close();
});
