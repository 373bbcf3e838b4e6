// Every page of the panel, for the tests that visit them all (axe in light and dark, the 390 px
// phone layout, screenshots). A page added to the panel is added here, so those tests cover it.
// Detail pages (/businesses/{id}, /agents/{id}) are reached through records that
// `seedPanelRecords` creates once per run through the REST API as the static owner.
import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext } from "@playwright/test";
import { asBearer, E2E_BASE_URL, E2E_OWNER_TOKEN } from "./support";

/** The records a page's path may need (created by seedPanelRecords). */
export type TPanelSeed = {
  businessId: string;
  businessName: string;
  projectId: string;
  agentId: string;
  agentName: string;
  /** An OAuth client registered for the consent page (POST /oauth/register). */
  oauthClientId: string;
};

/** The OAuth client the consent page's check names (its redirect URI is never followed there). */
export const PANEL_OAUTH_CLIENT = "Pages Assistant";

export type TPanelPage = {
  /** A short name for test titles and screenshot files (kebab-case). */
  name: string;
  /** The page's path, or how to make it from the seeded records. */
  path: string | ((seed: TPanelSeed) => string);
  /** The page's one h1, or how to make it from the seeded records. */
  heading: string | RegExp | ((seed: TPanelSeed) => string);
  /** A page outside the panel, seen signed out (sign-in). */
  signedOut?: boolean;
};

export const PANEL_PAGES: TPanelPage[] = [
  { name: "sign-in", path: "/sign-in", heading: "Sign in to your back office", signedOut: true },
  {
    name: "landing",
    path: "/",
    heading: "The back office for founders who run several businesses, and let AI agents spend for them",
    signedOut: true,
  },
  { name: "waitlist-joined", path: "/joined", heading: "You are on the list", signedOut: true },
  { name: "overview", path: "/overview", heading: "Overview" },
  { name: "daily-brief", path: "/brief", heading: "Daily brief" },
  { name: "businesses", path: "/businesses", heading: "Businesses" },
  { name: "business", path: (seed) => `/businesses/${seed.businessId}`, heading: (seed) => seed.businessName },
  { name: "business-ads", path: (seed) => `/businesses/${seed.businessId}/ads`, heading: (seed) => seed.businessName },
  {
    name: "business-projects",
    path: (seed) => `/businesses/${seed.businessId}/projects`,
    heading: (seed) => seed.businessName,
  },
  {
    name: "business-simulate",
    path: (seed) => `/businesses/${seed.businessId}/simulate`,
    heading: (seed) => seed.businessName,
  },
  { name: "business-saas", path: (seed) => `/businesses/${seed.businessId}/saas`, heading: (seed) => seed.businessName },
  { name: "events", path: "/events", heading: "Events" },
  { name: "reports", path: "/reports", heading: "Reports" },
  { name: "subscriptions", path: "/subscriptions", heading: "Subscriptions" },
  { name: "agents", path: "/agents", heading: "Agents" },
  { name: "agent", path: (seed) => `/agents/${seed.agentId}`, heading: (seed) => seed.agentName },
  {
    name: "oauth-consent",
    path: (seed) =>
      `/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: seed.oauthClientId,
        redirect_uri: "http://127.0.0.1:9/callback",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
        state: "pages",
      }).toString()}`,
    heading: `Connect ${PANEL_OAUTH_CLIENT}`,
  },
  { name: "approvals", path: "/approvals", heading: "Approvals" },
  { name: "notifications", path: "/notifications", heading: "Notifications" },
  { name: "integrations", path: "/integrations", heading: "Integrations" },
  { name: "imports", path: "/imports", heading: "Imports" },
  { name: "cash", path: "/cash", heading: "Cash" },
  { name: "reservations", path: "/reservations", heading: "Budget reservations" },
  { name: "goals", path: "/goals", heading: "Goals" },
  { name: "waitlist", path: "/waitlist", heading: "Waitlist" },
  { name: "audit", path: "/audit", heading: "Audit log" },
  { name: "rules", path: "/rules", heading: "Rules" },
  { name: "settings", path: "/settings", heading: "Settings" },
  { name: "sessions", path: "/settings/sessions", heading: "Sessions" },
  { name: "not-found", path: "/no-such-page", heading: "Page not found", signedOut: true },
];

export function pagePath(page: TPanelPage, seed: TPanelSeed): string {
  return typeof page.path === "function" ? page.path(seed) : page.path;
}

export function pageHeading(page: TPanelPage, seed: TPanelSeed): string | RegExp {
  return typeof page.heading === "function" ? page.heading(seed) : page.heading;
}

let seeded: Promise<TPanelSeed> | null = null;

/**
 * A business with a project and an expense, and an agent, owned by the run's static owner;
 * created once per worker (the records are the same for every page).
 */
export function seedPanelRecords(request: APIRequestContext): Promise<TPanelSeed> {
  seeded ??= createSeed(request).catch((error: unknown) => {
    seeded = null;
    throw error;
  });
  return seeded;
}

async function createSeed(request: APIRequestContext): Promise<TPanelSeed> {
  // Unique per call (a worker restarted after a failure seeds again; names are unique per owner).
  const suffix = randomUUID().slice(0, 8);
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await asBearer(request, E2E_OWNER_TOKEN, "POST", path, body);
    expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
    return ((await response.json()) as { data: T }).data;
  };
  const businessName = `Pages Studio ${suffix}`;
  const business = await post<{ id: string }>("/v1/businesses", { name: businessName, currency: "EUR" });
  const project = await post<{ id: string }>(`/v1/businesses/${business.id}/projects`, { name: `Pages Project ${suffix}` });
  await post("/v1/expenses", {
    business_id: business.id,
    amount_minor: 12_345,
    currency: "EUR",
    occurred_on: new Date().toISOString().slice(0, 10),
    category: "software",
    description: "Pages seed expense",
  });
  const agentName = `Pages Agent ${suffix}`;
  const agent = await post<{ id: string }>("/v1/agents", { name: agentName });
  const registered = await request.post(`${E2E_BASE_URL}/oauth/register`, {
    data: { client_name: PANEL_OAUTH_CLIENT, redirect_uris: ["http://127.0.0.1:9/callback"] },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const oauthClientId = ((await registered.json()) as { client_id: string }).client_id;
  return { businessId: business.id, businessName, projectId: project.id, agentId: agent.id, agentName, oauthClientId };
}
