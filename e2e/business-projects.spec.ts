// A business's Projects tab in a real browser. Each test signs in a NEW owner (an API session
// through the mailed link), so its figures are its own: with no project the tab says what to
// do, and a project created there joins the list and the health cards; with projects, events
// and a shared subscription (seeded through the REST API) every card shows the API's status,
// score, figures and reasons in words, for the last 30 and 90 days. axe finds no serious
// violation in light and dark; nothing is wider than a 390 px phone; screenshots go to
// test-results/screenshots/.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { addDays, todayIn } from "../lib/days";
import { formatMinor } from "../lib/money";
import { apiSession, asBearer, E2E_BASE_URL, expectNoSeriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = process.env.E2E_RUN_ID ?? String(Date.now());
const SHOTS = "test-results/screenshots";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

function newEmail(label: string): string {
  return `${label}-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`;
}

function api(request: APIRequestContext, token: string) {
  return {
    async get<T>(path: string): Promise<T> {
      const response = await asBearer(request, token, "GET", path);
      expect(response.status(), `GET ${path}: ${await response.text()}`).toBe(200);
      return (await response.json()) as T;
    },
    async post<T = { data: { id: string } }>(path: string, body: unknown): Promise<T> {
      const response = await asBearer(request, token, "POST", path, body);
      expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
      return (await response.json()) as T;
    },
    async put(path: string, body: unknown): Promise<void> {
      const response = await request.fetch(`${E2E_BASE_URL}${path}`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": randomUUID() },
        data: body,
      });
      expect(response.status(), `PUT ${path}: ${await response.text()}`).toBe(200);
    },
  };
}

type THealthRow = {
  project_id: string | null;
  name: string | null;
  revenue_minor: number;
  direct_costs_minor: number;
  allocated_costs_minor: number;
  margin_minor: number;
  score: number | null;
  status: string | null;
  reasons: { code: string; detail: string }[];
};
type THealth = { data: { currency: string; from: string; to: string; projects: THealthRow[] } };

const STATUS_WORDS: Record<string, string> = {
  healthy: "Healthy",
  watch: "Watch",
  at_risk: "At risk",
  insufficient_data: "Not enough data",
};

async function expectFitsThePhone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The card of a project (or "Business-level, no project"). */
function card(page: Page, title: string) {
  return page.getByRole("article", { name: title, exact: true });
}

test("a business without projects says what to do; a project created on the tab joins the list and the health", async ({
  page,
  request,
}) => {
  const token = await apiSession(request, newEmail("projects-new"));
  const owner = api(request, token);
  const business = (await owner.post("/v1/businesses", { name: "Empty Studio", currency: "EUR" })).data.id;
  await signIn(page, token);

  // The overview links to the tab; the tab is the current one there.
  await page.goto(`/businesses/${business}`);
  await page.getByRole("link", { name: "Open the Projects tab" }).click();
  await expect(page).toHaveURL(new RegExp(`/businesses/${business}/projects$`));
  await expect(page.getByRole("heading", { name: "Empty Studio", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Business sections" }).getByRole("link", { name: "Projects" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No projects to score yet")).toBeVisible();
  await expect(page.getByText("No projects yet")).toBeVisible();

  await page.setViewportSize(PHONE);
  await expectFitsThePhone(page);
  await expectNoSeriousViolations(page, "the empty Projects tab at 390 px");
  await shot(page, "business-projects-empty-390");

  await page.setViewportSize(DESKTOP);
  await page.getByLabel("Project name").fill("Website");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("row", { name: /Website/ })).toBeVisible();
  // The new project has no events yet: not enough data to score it, and the card says why.
  const website = card(page, "Website");
  await expect(website.getByTestId("health-status")).toHaveText("Not enough data");
  await expect(website.getByRole("listitem")).toContainText("No counted events");
  await expect(page.getByText("No projects to score yet")).toHaveCount(0);
});

test.describe("an owner with projects, events and a shared subscription", () => {
  let token = "";
  let business = "";
  let locale = "en-US";
  /** The tool's charge in the owner's base currency (what the projects share). */
  let toolBaseMinor = 0;

  test.beforeAll(async ({ request }) => {
    token = await apiSession(request, newEmail("projects"));
    const owner = api(request, token);
    const me = await owner.get<{ data: { timezone: string; locale: string } }>("/v1/me");
    locale = me.data.locale;
    const today = todayIn(me.data.timezone);
    business = (await owner.post("/v1/businesses", { name: "Harbor Studio", currency: "EUR" })).data.id;
    const project = async (name: string) => (await owner.post(`/v1/businesses/${business}/projects`, { name })).data.id;
    const alpha = await project("Alpha");
    const beta = await project("Beta");
    await project("Gamma");

    const events: Array<[string, Record<string, string>, number, number, string]> = [
      ["/v1/revenues", { project_id: alpha }, 500_00, -3, "Alpha launch"],
      ["/v1/expenses", { project_id: alpha }, 120_00, -4, "Alpha freelancers"],
      // Beta earned well 40 days ago (the previous 30 days) and now only costs.
      ["/v1/revenues", { project_id: beta }, 900_00, -40, "Beta pilot"],
      ["/v1/expenses", { project_id: beta }, 210_00, -5, "Beta ads"],
      ["/v1/revenues", { business_id: business }, 75_00, -2, "Consulting"],
    ];
    for (const [path, scope, amount_minor, days, description] of events)
      await owner.post(path, { ...scope, amount_minor, currency: "EUR", occurred_on: addDays(today, days), description });

    // A business-level tool charged 10 days ago, split 50/50 over Alpha and Beta, with seats.
    const tool = await owner.post<{ data: { subscription: { id: string }; event: { base_amount_minor: number } } }>(
      "/v1/recurring-expenses",
      {
        business_id: business,
        name: "Design suite",
        amount_minor: 99_99,
        currency: "EUR",
        billing_interval: "month",
        next_charge_on: addDays(today, -10),
      },
    );
    const toolId = tool.data.subscription.id;
    toolBaseMinor = tool.data.event.base_amount_minor;
    await owner.put(`/v1/subscriptions/${toolId}/allocations`, {
      allocations: [
        { project_id: alpha, share_bps: 5000 },
        { project_id: beta, share_bps: 5000 },
      ],
    });
    await owner.put(`/v1/subscriptions/${toolId}/capacity`, { unit: "seats", total: 10, used: 9 });
  });

  test("each card shows the API's status, score, figures and reasons in words; 30 and 90 days", async ({ page, request }) => {
    const owner = api(request, token);
    await signIn(page, token);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/businesses/${business}/projects`);
    await expect(page.getByRole("heading", { name: "Project health", level: 2 })).toBeVisible();

    for (const days of [30, 90] as const) {
      if (days === 90) {
        await page.getByRole("navigation", { name: "Health period" }).getByRole("link", { name: "Last 90 days" }).click();
        await expect(page).toHaveURL(/\?days=90$/);
      }
      await expect(
        page.getByRole("navigation", { name: "Health period" }).getByRole("link", { name: `Last ${days} days` }),
      ).toHaveAttribute("aria-current", "true");
      const me = await owner.get<{ data: { timezone: string } }>("/v1/me");
      const from = addDays(todayIn(me.data.timezone), -(days - 1));
      const health = await owner.get<THealth>(`/v1/businesses/${business}/project-health?from=${from}`);
      const money = (minor: number) => formatMinor(minor, health.data.currency, locale);
      expect(health.data.projects.map((row) => row.name)).toEqual(["Alpha", "Beta", "Gamma", null]);
      for (const row of health.data.projects) {
        const title = row.name ?? "Business-level, no project";
        const shown = card(page, title);
        await expect(shown, title).toBeVisible();
        if (row.status) {
          await expect(shown.getByTestId("health-status")).toHaveText(
            `${STATUS_WORDS[row.status]}${row.score === null ? "" : ` · score ${row.score}`}`,
          );
          for (const reason of row.reasons) await expect(shown.getByText(reason.detail, { exact: true })).toBeVisible();
        } else {
          await expect(shown.getByText("No score")).toBeVisible();
        }
        await expect(shown.getByTestId("health-revenue")).toHaveText(money(row.revenue_minor));
        await expect(shown.getByTestId("health-costs")).toHaveText(money(row.direct_costs_minor + row.allocated_costs_minor));
        await expect(shown.getByTestId("health-margin")).toHaveText(money(row.margin_minor));
      }
      if (days === 30) {
        // Over 30 days: Beta lost money after a good previous month; Alpha's shared tool is nearly full.
        const [alpha, beta, gamma] = health.data.projects;
        expect(beta!.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(["negative_margin", "margin_drop"]));
        expect(alpha!.reasons.map((r) => r.code)).toContain("capacity_near_full");
        expect(alpha!.allocated_costs_minor + beta!.allocated_costs_minor).toBe(toolBaseMinor);
        expect(gamma!.status).toBe("insufficient_data");
        await expect(card(page, "Alpha").getByText("Design suite: 9 of 10 seats (90%)")).toBeVisible();
        await shot(page, "business-projects-desktop");
      }
    }

    await expectNoSeriousViolations(page, "the Projects tab (light)");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoSeriousViolations(page, "the Projects tab (dark)");
    await shot(page, "business-projects-desktop-dark");
    await page.setViewportSize(PHONE);
    await expectFitsThePhone(page);
    await expectNoSeriousViolations(page, "the Projects tab at 390 px (dark)");
    await shot(page, "business-projects-390-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await shot(page, "business-projects-390");
  });
});
