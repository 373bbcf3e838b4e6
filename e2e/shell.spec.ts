// The panel's shell and what holds on every page, in Chromium: axe finds no serious or critical
// violation on any page of PANEL_PAGES in light on a desktop and on a 390 px phone, and in dark
// (the system setting) on a desktop (a dark phone pass would repeat the light phone's layout and
// the dark desktop's colours, for a quarter of this file's time); on the phone no page is wider
// than the screen and no two form controls overlap. Screenshots of every pass go to test-results/screenshots/shell/.
// Each page is opened once: the passes switch the scheme and then the viewport on the same page
// (the panel's scheme and layout are CSS media queries only), which is most of this file's time
// saved; the tests run in parallel, each worker with its own seeded records and session.
import { expect, test, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { PANEL_PAGES, pageHeading, pagePath, seedPanelRecords, type TPanelPage, type TPanelSeed } from "./panel-pages";
import { seriousViolations, signIn, switchPass } from "./support";

test.describe.configure({ mode: "parallel" });

const SHOTS = "test-results/screenshots/shell";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** The passes each page gets, in this order on one page: scheme and viewport. */
const PASSES = [
  ["light", "desktop", DESKTOP],
  ["dark", "desktop", DESKTOP],
  ["light", "phone", PHONE],
] as const;

type TStorageState = Awaited<ReturnType<Awaited<ReturnType<Browser["newContext"]>>["storageState"]>>;

let seed: TPanelSeed;
let signedIn: TStorageState;

test.beforeAll(async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  seed = await seedPanelRecords(request);
  const context = await browser.newContext({ baseURL });
  await signIn(await context.newPage());
  signedIn = await context.storageState();
  await context.close();
});

/** Pairs of visible form controls whose boxes overlap (more than a pixel each way). */
async function overlappingControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${
        element.getAttribute("name") ? `[name=${element.getAttribute("name")}]` : ""
      } "${(element.textContent ?? "").trim().slice(0, 30)}"`;
    const controls = [...document.querySelectorAll("input, select, textarea, button, a.button")]
      .filter((element) => {
        const style = getComputedStyle(element);
        return style.visibility !== "hidden" && style.display !== "none";
      })
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 2 && box.height > 2);
    const overlaps: string[] = [];
    for (let i = 0; i < controls.length; i += 1) {
      for (let j = i + 1; j < controls.length; j += 1) {
        const a = controls[i]!;
        const b = controls[j]!;
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        // A button drawn inside its input on purpose (the input keeps room for it: .input-addon).
        if (a.element.matches(".input-addon") || b.element.matches(".input-addon")) continue;
        const width = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const height = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (width > 1 && height > 1) overlaps.push(`${describe(a.element)} × ${describe(b.element)}`);
      }
    }
    return overlaps;
  });
}

async function openPage(browser: Browser, baseURL: string | undefined, panelPage: TPanelPage): Promise<Page> {
  const [colorScheme, , viewport] = PASSES[0];
  const context = await browser.newContext({
    colorScheme,
    viewport,
    baseURL,
    storageState: panelPage.signedOut ? undefined : signedIn,
  });
  const page = await context.newPage();
  await page.goto(pagePath(panelPage, seed));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pageHeading(panelPage, seed));
  // Charts and lists load on the client; wait until nothing is loading any more.
  await page.waitForLoadState("networkidle");
  return page;
}

for (const panelPage of PANEL_PAGES) {
  test(`${panelPage.name}: axe in light and dark, the 390 px phone layout, screenshots`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const page = await openPage(browser, baseURL, panelPage);
    for (const [index, [colorScheme, size, viewport]] of PASSES.entries()) {
      if (index > 0) await switchPass(page, colorScheme, viewport);
      const where = `${panelPage.name} (${size}, ${colorScheme})`;
      expect.soft(await seriousViolations(page), `axe on ${where}`).toEqual([]);
      if (size === "phone") {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect.soft(width, `${where} is no wider than the screen`).toBeLessThanOrEqual(PHONE.width);
        expect.soft(await overlappingControls(page), `overlapping controls on ${where}`).toEqual([]);
        if (!panelPage.signedOut) {
          // The navigation is one slim bar (its menu closed), however short the page.
          const bar = await page.locator("aside.sidebar").boundingBox();
          expect.soft(bar?.height ?? 0, `the top bar of ${where}`).toBeLessThanOrEqual(64);
        }
      }
      await page.screenshot({ path: `${SHOTS}/${panelPage.name}-${size}-${colorScheme}.png`, fullPage: true });
    }
    await page.context().close();
  });
}

/** A signed-in page of its own (desktop unless told), for the tests of one behaviour. */
async function signedInPage(browser: Browser, baseURL: string | undefined, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options, baseURL, storageState: signedIn });
  return context.newPage();
}

test("a skip link is the first stop for a keyboard on every kind of page, and it lands on the page's content", async ({
  browser,
  baseURL,
}) => {
  for (const signedOut of [false, true]) {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL, storageState: signedOut ? undefined : signedIn });
    const page = await context.newPage();
    await page.goto(signedOut ? "/sign-in" : "/overview");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The first element of the page a keyboard can reach is the skip link...
    const first = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [tabindex]")]
          .find((element) => element.tabIndex >= 0 && !element.matches(":disabled"))
          ?.textContent?.trim() ?? null,
    );
    expect(first).toBe("Skip to content");
    // ...and Tab reaches it from the top of the page (Shift+Tab from an autofocused field).
    const focused = await page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body);
    await page.keyboard.press(focused ? "Shift+Tab" : "Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
    // The next Tab goes into the page's content, not back through the navigation.
    await page.keyboard.press("Tab");
    const inNavigation = await page.evaluate(() => Boolean(document.activeElement?.closest("aside, nav")));
    expect(inNavigation).toBe(false);
    await context.close();
  }
});

test("on a 390 px phone the navigation is a menu behind a button that says whether it is open", async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL, { viewport: PHONE });
  await page.goto("/overview");
  const heading = page.getByRole("heading", { level: 1, name: "Overview" });
  await expect(heading).toBeVisible();
  await page.waitForLoadState("networkidle");
  const menu = page.getByRole("button", { name: "Menu" });
  const businesses = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Businesses" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toHaveAttribute("aria-controls", "panel-menu");
  await expect(businesses).toBeHidden();
  const before = await heading.boundingBox();

  // Opening: the links show over the page (the page does not move) and focus goes to the first.
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(businesses).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" })).toBeFocused();
  expect(await heading.boundingBox()).toEqual(before);
  await page.screenshot({ path: `${SHOTS}/menu-open-phone-light.png` });

  // Escape closes it and gives focus back to the button.
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(businesses).toBeHidden();
  await expect(menu).toBeFocused();

  // A click outside closes it too.
  await menu.click();
  await expect(businesses).toBeVisible();
  // (the empty middle of the bar, between the brand and the button)
  await page.mouse.click(PHONE.width / 2, 28);
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  // Following a link opens the page with the menu closed.
  await menu.click();
  await businesses.click();
  await expect(page).toHaveURL(/\/businesses$/);
  await expect(page.getByRole("heading", { level: 1, name: "Businesses" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events" })).toBeHidden();

  // On a desktop there is no menu button: the navigation is always there.
  await page.setViewportSize(DESKTOP);
  await expect(menu).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events" })).toBeVisible();
  await page.context().close();
});

test("without JavaScript a 390 px phone shows the navigation as a list (the menu button needs a script)", async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, baseURL, { viewport: PHONE, javaScriptEnabled: false });
  await page.goto("/overview");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sessions" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.context().close();
});

test("the shown-once token and secret dialogs stay open on Escape and on a backdrop click until the owner confirms", async ({
  browser,
  baseURL,
}) => {
  // On a phone in dark mode, so the screenshots show the dialogs there too.
  const page = await signedInPage(browser, baseURL, { viewport: PHONE, colorScheme: "dark" });

  await page.goto("/agents");
  const form = page.getByRole("form", { name: "New agent" });
  await form.getByLabel("Agent name").fill(`Escape test ${Date.now()}`);
  await form.getByRole("button", { name: "Create agent" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const token = await dialog.getByLabel("Agent token").inputValue();
  expect(token).toMatch(/^agt_/);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Agent token")).toHaveValue(token);
  await page.screenshot({ path: `${SHOTS}/token-dialog-phone-dark.png` });
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(dialog).toBeHidden();

  await page.goto("/integrations");
  const generic = page.getByRole("form", { name: "Connect generic webhook" });
  await generic.getByLabel("Business").selectOption({ label: seed.businessName });
  await generic.getByRole("button", { name: "Create webhook" }).click();
  const secretDialog = page.getByRole("dialog");
  await expect(secretDialog).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/secret-dialog-phone-dark.png` });
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await page.mouse.click(5, 5);
  await expect(secretDialog).toBeVisible();
  await secretDialog.getByRole("button", { name: "I have copied the secret" }).click();
  await expect(secretDialog).toBeHidden();
  await page.context().close();
});

test("every form shows all its errors at once", async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL);

  // Checked in the browser: an amount that is not one and a missing date, together.
  await page.goto("/events");
  const event = page.getByRole("form", { name: "New event" });
  // With several businesses and no hint the scope has no default (issue 37): chosen here.
  await event.getByLabel("Scope").selectOption({ label: "Personal" });
  await event.getByLabel("Amount").fill("12,3,4");
  await event.getByLabel("Date").fill("");
  await event.getByRole("button", { name: "Add expense" }).click();
  await expect(event.getByText("Enter an amount such as 12.34.")).toBeVisible();
  await expect(event.getByText("Enter a date.")).toBeVisible();
  await expect(event.getByLabel("Amount")).toBeFocused();

  await page.goto("/subscriptions");
  const subscription = page.getByRole("form", { name: "New subscription" });
  await subscription.getByLabel("Scope").selectOption({ label: "Personal" });
  await subscription.getByLabel("Next charge").fill("");
  await subscription.getByRole("button", { name: "Create subscription" }).click();
  await expect(subscription.getByText("Enter a name.")).toBeVisible();
  await expect(subscription.getByText("Enter an amount such as 12.34.")).toBeVisible();
  await expect(subscription.getByText("Enter the next charge date.")).toBeVisible();

  // The agent form: a missing name, a limit that is not an amount and an address that is not one.
  await page.goto("/agents");
  const agent = page.getByRole("form", { name: "New agent" });
  await agent.getByRole("button", { name: "Add grant" }).click();
  await agent.getByLabel("Daily limit").fill("lots");
  await agent.getByLabel("Allowed IP ranges").fill("10.0.0.0/8, not-an-address");
  await agent.getByRole("button", { name: "Create agent" }).click();
  await expect(agent.getByText("Enter a name.")).toBeVisible();
  await expect(agent.locator(".field-error", { hasText: /amount/i })).toBeVisible();
  await expect(agent.getByText("“not-an-address” must be an IP address or CIDR range.")).toBeVisible();
  await expect(agent.getByLabel("Agent name")).toBeFocused();

  // Checked by the server: both fields' answers appear together.
  await page.goto("/businesses");
  const business = page.getByRole("form", { name: "New business" });
  await business.getByLabel("Currency", { exact: true }).selectOption({ label: "Other…" });
  await business.getByLabel("Other currency code").fill("X1");
  await business.getByRole("button", { name: "Create business" }).click();
  await expect(business.locator(".field-error")).toHaveCount(2);
  await page.context().close();
});

test("a 500 from the server is reported as a fault on our side with its request id, a lost connection as one", async ({
  browser,
  baseURL,
}) => {
  // No real route of the server fails on demand, so the browser's call to the panel's endpoint
  // is answered here: this tests how the panel reads the answers, not the server.
  const page = await signedInPage(browser, baseURL);
  await page.goto("/businesses");
  const form = page.getByRole("form", { name: "New business" });
  await form.getByLabel("Name").fill(`Fault test ${Date.now()}`);
  const submit = form.getByRole("button", { name: "Create business" });
  const alert = form.getByRole("alert");

  // The endpoint's own JSON answer for internal_error.
  await page.route("**/api/trpc/**", (route) =>
    route.fulfill({
      status: 500,
      headers: { "content-type": "application/json", "x-request-id": "req_json500" },
      body: JSON.stringify([
        {
          error: {
            message: "Something went wrong on our side; retry with the same Idempotency-Key.",
            code: -32603,
            data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500, appCode: "internal_error" },
          },
        },
      ]),
    }),
  );
  await submit.click();
  await expect(alert).toHaveText(/Something went wrong on our side\..*request id req_json500/);
  await expect(alert).not.toContainText("could not be reached");
  await page.unroute("**/api/trpc/**");

  // A crashed route's or a proxy's HTML error page.
  await page.route("**/api/trpc/**", (route) =>
    route.fulfill({
      status: 502,
      headers: { "content-type": "text/html", "x-request-id": "req_html502" },
      body: "<h1>Bad Gateway</h1>",
    }),
  );
  await submit.click();
  await expect(alert).toHaveText(/Something went wrong on our side\..*request id req_html502/);
  await page.unroute("**/api/trpc/**");

  // No answer at all.
  await page.route("**/api/trpc/**", (route) => route.abort("connectionrefused"));
  await submit.click();
  await expect(alert).toHaveText("The server could not be reached. Check your connection and try again.");
  await page.unroute("**/api/trpc/**");
  await page.context().close();
});
