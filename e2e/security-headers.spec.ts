// The panel under its Content-Security-Policy (proxy.ts, server/http/security-headers.ts): every
// page loads, hydrates and navigates with nonce-only scripts and no CSP violation; the headers
// are there (no HSTS: this server's PUBLIC_BASE_URL is http); /v1 and /api answers are never
// sniffed nor framed; and no other site can frame the approvals page.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { PANEL_PAGES } from "./panel-pages";
import { E2E_BASE_URL, E2E_OWNER_TOKEN, signIn } from "./support";

// The signed-in pages whose path needs no seeded record (e2e/panel-pages.ts lists them all).
const STATIC_PANEL_PAGES = PANEL_PAGES.flatMap((page) =>
  typeof page.path === "string" && typeof page.heading !== "function" && !page.signedOut
    ? [{ path: page.path, heading: page.heading }]
    : [],
);

/** Collects CSP violations (the DOM event, and Chrome's console report) from every page of `page`. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const reports: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to (execute|load|apply|frame)/i.test(message.text())) {
      reports.push(message.text());
    }
  });
  // Injected by the browser's devtools protocol, so the page's own CSP does not block it.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const list = ((window as unknown as { __csp?: string[] }).__csp ??= []);
      list.push(`${event.violatedDirective}: ${event.blockedURI}`);
    });
  });
  return async () => [...reports, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

test("every panel page works under the nonce-based CSP, with no violation", async ({ page }) => {
  // One page after another, every page of the panel: more than the default 30 s on a busy 2-core machine.
  test.setTimeout(120_000);
  const violations = await watchCsp(page);

  await page.goto("/sign-in");
  // The sign-in page hydrates: the email form refuses a bad address in place (client script).
  await page.getByLabel("Email").fill("not-an-address");
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByText("That does not look like an email address. Check it and try again.")).toBeVisible();
  expect(await violations()).toEqual([]);

  await signIn(page);
  for (const { path, heading } of STATIC_PANEL_PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    // Every script Next wrote into the page carries this response's nonce.
    const scripts = await page
      .locator("script")
      .evaluateAll((elements) =>
        elements.map((element) => ({ nonce: (element as HTMLScriptElement).nonce, src: element.getAttribute("src") })),
      );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script.nonce, `a script without nonce on ${path}: ${script.src}`).not.toBe("");
    expect(await violations(), `CSP violations on ${path}`).toEqual([]);
  }

  // Client-side navigation (the hydrated sidebar) and a client-rendered form still work.
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Businesses" }).click();
  await expect(page).toHaveURL(/\/businesses$/);
  await nav.getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Add grant" }).click();
  await expect(page.getByRole("group", { name: "Grant 1" })).toBeVisible();

  // A page that does not exist is rendered per request too, so its scripts run.
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  expect(await violations()).toEqual([]);
});

test("panel pages send the security headers, with a new nonce each time; no HSTS over http", async ({ request }) => {
  const first = await request.get("/sign-in");
  const second = await request.get("/sign-in");
  const headers = first.headers();
  const csp = headers["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(second.headers()["content-security-policy"]).not.toBe(csp);
  // Next put the header's nonce on its scripts.
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  expect(await first.text()).toContain(`nonce="${nonce}"`);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["strict-transport-security"]).toBeUndefined();

  for (const path of ["/v1/openapi.json", "/v1/me", "/api/trpc/me.get"]) {
    const api = (await request.get(path)).headers();
    expect(api["x-content-type-options"], path).toBe("nosniff");
    expect(api["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(api["x-frame-options"], path).toBe("DENY");
  }
});

test("once loaded, /v1 answers come straight from the REST layer, with the same body and security headers", async ({
  request,
}) => {
  const headers = { Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Accept-Encoding": "gzip" };
  // The first /v1 call loads the route (through Next.js); from then on the server entry hands
  // plain /v1 paths to the REST layer itself (server/http/node-dispatch.ts), so Next.js's Vary
  // (rsc, next-router-…) is not there; a path Next.js redirects first still goes through Next.js.
  expect((await request.get("/v1/me", { headers })).status()).toBe(200);
  const direct = await request.get("/v1/openapi.json", { headers });
  expect(direct.status()).toBe(200);
  expect(direct.headers()["vary"]).toBe("Accept-Encoding");
  expect(direct.headers()["content-encoding"]).toBe("gzip");
  expect(direct.headers()["x-frame-options"]).toBe("DENY");
  expect(((await direct.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  const small = await request.get("/v1/me", { headers });
  expect(small.headers()["content-encoding"]).toBeUndefined();
  expect(Number(small.headers()["content-length"])).toBe((await small.body()).length);
  const redirected = await request.get("/v1/me/", { headers, maxRedirects: 0 });
  expect(redirected.status()).toBe(308);
  expect(redirected.headers()["location"]).toBe("/v1/me");
});

test("another site cannot frame the approvals page", async ({ page }) => {
  await signIn(page);
  // Another origin on this machine, really served (Chrome's local-network rules stop a public
  // or made-up page from framing localhost before our headers would count).
  const attacker = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      `<!doctype html><title>Win a prize</title><iframe name="victim" src="${E2E_BASE_URL}/approvals" width="800" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  try {
    await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
    // Whatever the framed request answers (the approvals page, or the sign-in page when the
    // cookie stays behind), it forbids being framed: the browser puts its error page in the frame
    // (whose words are the browser's own: the headless shell's is blank) and none of the page.
    const frame = page.frame({ name: "victim" })!;
    await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
    await expect(frame.getByText(/Approvals|back office/)).toHaveCount(0);
    expect(await frame.locator("h1, form, nav").count()).toBe(0);
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }
});
