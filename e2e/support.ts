// Shared by the browser tests and playwright.config.ts.
import fs from "node:fs";
import path from "node:path";
import { createHmac, randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { minorToMajor } from "../lib/money";

/** STATIC_OWNER_TOKEN of the server the e2e run starts. */
export const E2E_OWNER_TOKEN = "e2e-owner-token-0123456789";
/** The social_ads app secret the e2e connections are made with (also the server's): the tests sign the platform's deliveries with it. */
export const E2E_SOCIAL_ADS_SECRET = "e2e-social-ads-secret";

/** The server the e2e run starts (localhost, not 127.0.0.1: see playwright.config.ts); E2E_PORT overrides the port. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3123);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** LANDING_ORIGIN of the e2e server: a page the waitlist spec serves on this port may post to /v1/waitlist. */
export const E2E_LANDING_PORT = E2E_PORT + 1000;
export const E2E_LANDING_ORIGIN = `http://127.0.0.1:${E2E_LANDING_PORT}`;

/** The static owner's email of this run (set by playwright.config.ts, new every run). */
export function ownerEmail(): string {
  const email = process.env.E2E_OWNER_EMAIL;
  if (!email) throw new Error("E2E_OWNER_EMAIL is not set; run the tests through playwright.config.ts");
  return email;
}

/** Signs in with the static owner token (the sign-in page's secondary form); the panel opens on the Overview. */
export async function signIn(page: Page, token = E2E_OWNER_TOKEN): Promise<void> {
  await page.goto("/sign-in");
  await openTokenForm(page);
  await page.getByLabel("Owner token").fill(token);
  await page.getByRole("button", { name: "Sign in with token" }).click();
  await expect(page).toHaveURL(/\/overview$/);
}

/** Opens the "Use an owner token" disclosure (a <details>: works without JavaScript too). */
export async function openTokenForm(page: Page): Promise<void> {
  const disclosure = page.locator("details.disclosure");
  if ((await disclosure.getAttribute("open")) === null) await page.getByText("Use an owner token").click();
  await expect(page.getByLabel("Owner token")).toBeVisible();
}

/** Headers a browser's same-origin fetch carries (the panel endpoints' CSRF rule wants Origin). */
export const SAME_ORIGIN = { origin: E2E_BASE_URL };

// --- mail: scripts/e2e-server.ts writes every message the server sends to E2E_MAIL_DIR ---

export type TE2EMail = { received_at: string; from: string; to: string[]; subject: string; text: string; html: string };

function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set; run the tests through playwright.config.ts");
  return dir;
}

function readMails(): TE2EMail[] {
  const dir = mailDir();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as TE2EMail);
}

/** The mails to `to`, oldest first. */
export function mailsTo(to: string): TE2EMail[] {
  const address = to.toLowerCase();
  return readMails().filter((mail) => mail.to.includes(address));
}

/** Waits for the `count`-th mail to `to` (1 = the first) and answers it. */
export async function waitForMail(to: string, { count = 1, timeoutMs = 15_000 } = {}): Promise<TE2EMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(to);
    if (mails.length >= count) return mails[count - 1]!;
    if (Date.now() > deadline)
      throw new Error(`No mail #${count} to ${to} arrived within ${timeoutMs} ms (${readMails().length} in the sink).`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sign-in link of a mail (the first http(s) URL of its text part). */
export function linkFrom(mail: TE2EMail): string {
  const link = /https?:\/\/[^\s<>"]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

// --- the REST API as a bearer (an owner's API session, an agent) ---

/** A request to the REST API as an agent (or any bearer). */
export async function asBearer(request: APIRequestContext, token: string, method: "GET" | "POST", path: string, body?: unknown) {
  return request.fetch(`${E2E_BASE_URL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(method === "POST" ? { "Idempotency-Key": randomUUID() } : {}) },
    data: body,
  });
}

/**
 * The ad platform reports campaigns' daily budgets (a signed social_ads `campaign_budget` delivery
 * for `accountId`, connected with E2E_SOCIAL_ADS_SECRET): what the service then knows, and what an
 * agent's raise is counted from (pinned-wave3 §1.1), whatever previous budget the agent claims.
 */
export async function reportCampaignBudgets(
  request: APIRequestContext,
  accountId: string,
  budgets: ReadonlyArray<{ campaign_id: string; daily_budget_minor: number; currency: string }>,
): Promise<void> {
  const delivery = JSON.stringify({
    object: "ad_account",
    entry: [
      {
        id: accountId,
        time: Math.floor(Date.now() / 1000),
        changes: budgets.map(({ campaign_id, daily_budget_minor, currency }) => ({
          field: "campaign_budget",
          value: { campaign_id, status: "APPLIED", daily_budget: minorToMajor(daily_budget_minor, currency), currency },
        })),
      },
    ],
  });
  const delivered = await request.post(`${E2E_BASE_URL}/v1/webhooks/social_ads`, {
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", E2E_SOCIAL_ADS_SECRET).update(delivery).digest("hex")}`,
    },
    data: delivery,
  });
  expect(delivered.status(), await delivered.text()).toBe(200);
}

/** An API session for `email`: POST /v1/auth/magic-link, the mail's token, POST /v1/auth/verify. */
export async function apiSession(request: APIRequestContext, email: string): Promise<string> {
  const before = mailsTo(email).length;
  const asked = await request.post("/v1/auth/magic-link", { data: { email } });
  expect(asked.status()).toBe(202);
  const link = linkFrom(await waitForMail(email, { count: before + 1 }));
  expect(link.startsWith(`${E2E_BASE_URL}/sign-in/verify?token=`)).toBe(true);
  const verified = await request.post("/v1/auth/verify", { data: { token: new URL(link).searchParams.get("token") } });
  expect(verified.status()).toBe(200);
  return ((await verified.json()) as { data: { session_token: string } }).data.session_token;
}

/**
 * The serious and critical violations axe finds on the page as it stands now (or in the parts
 * `include` selects), one line each: the rule, its impact, and each node with what to fix.
 *
 * A page without frames is checked by axe.run in the page itself (AxeBuilder's legacy mode):
 * the default runs axe.runPartial in every frame and then axe.finishRun in a new blank page,
 * which took half of each check (about 0.45 of 0.9 s a page) for the same results. A page with
 * frames keeps the default, so no cross-origin frame goes unchecked.
 */
export async function seriousViolations(page: Page, { include = [] as string[] } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  for (const selector of include) builder.include(selector);
  if (page.frames().length === 1) builder.setLegacyMode();
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .map((node) => `${node.target.join(" ")} ${node.failureSummary?.split("\n").slice(1).join(" ") ?? ""}`.trim())
          .join(" | ")}`,
    );
}

/** axe finds no serious or critical violation on the page as it stands (each one named with its nodes). */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${label}`).toEqual([]);
}

/** The four passes of a page's accessibility test: light and dark, each on a desktop and on a 390 px phone. */
export function lightAndDarkPasses<V extends { width: number; height: number }>(desktop: V, phone: V) {
  return [
    ["light", "desktop", desktop],
    ["light", "phone", phone],
    ["dark", "desktop", desktop],
    ["dark", "phone", phone],
  ] as const;
}

/**
 * Every pass of a page (lightAndDarkPasses): axe finds no serious violation, the page is no wider
 * than the viewport, and a full-page screenshot goes to `shots`/<name>-<device>-<scheme>.png.
 * Ends on the light desktop pass.
 */
export async function checkEveryPass(page: Page, name: string, shots: string): Promise<void> {
  const desktop = { width: 1366, height: 800 };
  for (const [scheme, device, viewport] of lightAndDarkPasses(desktop, { width: 390, height: 844 })) {
    await switchPass(page, scheme, viewport);
    expect(await seriousViolations(page), `axe on ${name} (${scheme}, ${device})`).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} fits ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `${shots}/${name}-${device}-${scheme}.png`, fullPage: true });
  }
  await switchPass(page, "light", desktop);
}

/**
 * Switches an open page to another colour scheme and viewport (one page for the light, dark and
 * phone passes of a page instead of one each) and waits until the page has taken them in: the
 * media queries answer for the new scheme and width, the colour transitions (0.15 s on buttons
 * and inputs) have ended, and the layout stopped moving (ResizeObserver work: the charts' width,
 * a table's scroll region becoming a tab stop) over several frames.
 */
export async function switchPass(
  page: Page,
  colorScheme: "light" | "dark",
  viewport: { width: number; height: number },
): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await page.setViewportSize(viewport);
  await page.waitForFunction(
    ({ scheme, width }) =>
      window.matchMedia(`(prefers-color-scheme: ${scheme})`).matches && window.matchMedia(`(width: ${width}px)`).matches,
    { scheme: colorScheme, width: viewport.width },
  );
  await page.evaluate(async () => {
    const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    // A frame, or 50 ms where frames come slowly: every wait here is bounded.
    const frame = () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => resolve());
        setTimeout(resolve, 50);
      });
    await frame();
    // The transitions the switch started run to their end (the longest one left, at most 2 s);
    // a spinner's endless animation has no end to wait for.
    const left = document.getAnimations().map((animation) => {
      const timing = animation.effect?.getComputedTiming();
      const end = Number(timing?.endTime);
      const now = Number(timing?.localTime ?? 0);
      return Number.isFinite(end) ? end - now : 0;
    });
    await sleep(Math.min(Math.max(0, ...left), 2_000));
    const layout = () => {
      const root = document.documentElement;
      const regions = [...document.querySelectorAll(".table-scroll")].map((box) => box.getAttribute("tabindex") ?? "-");
      return [root.scrollWidth, root.scrollHeight, ...regions].join(",");
    };
    // Then the layout holds still for five frames in a row (at most 5 s).
    const until = performance.now() + 5_000;
    let last = layout();
    for (let stable = 0; stable < 5 && performance.now() < until;) {
      await frame();
      const now = layout();
      stable = now === last ? stable + 1 : 0;
      last = now;
    }
  });
  await page.waitForLoadState("networkidle");
}
