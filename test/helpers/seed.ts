// Seed factories: the records tests start from, made the way the product makes them. Each goes
// through the real /v1 API (as the static owner of createTestApi, or as `token`), so what a test
// starts from is what a client could have made, audit entries included. A row is written
// directly only where the API cannot make the state (see seedOwner and seedIntegration).
//
//   const atlas = await seedBusiness(api);                        // "Atlas", EUR
//   const web = await seedProject(api, atlas.id, { name: "Web" });
//   const agent = await seedAgent(api, { grants: [businessGrant(atlas.id)] });
//   const bob = await seedOwner(api);                             // another owner, with a token
//   const theirs = await seedBusiness(api, { name: "Theirs" }, bob.token);
import { randomUUID } from "node:crypto";
import type { TBusiness } from "../../server/businesses/business.schema";
import { encryptSecret } from "../../server/crypto/secret-box";
import type { TConnectGenericResult } from "../../server/integrations/integration.schema";
import type { TEvent } from "../../server/ledger/event.schema";
import type { TProject } from "../../server/projects/project.schema";
import type { TReservation } from "../../server/reservations/reservation.schema";
import { openOwnerSession } from "../../server/sessions/session-service";
import type { TSubscription } from "../../server/subscriptions/subscription.schema";
import { callMultipart, OWNER_TOKEN, type TApiResponse, type TTestApi } from "./api";

/** An owner a test acts as: the id and a bearer token of theirs. */
export type TSeedOwner = { ownerId: string; token: string };

/** The answer's `data`, or a throw naming what could not be made (a seed never fails silently). */
export function createdData<T = any>(response: TApiResponse, what: string): T {
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`seeding ${what} answered ${response.status}: ${response.text}`);
  }
  return response.body.data as T;
}

// --- owners ---

/** The static owner of createTestApi (OWNER_TOKEN), with the id GET /v1/me answers. */
export async function staticOwner(api: TTestApi): Promise<TSeedOwner> {
  const me = createdData<{ id: string }>(await api.call("GET", "/v1/me"), "the static owner");
  return { ownerId: me.id, token: OWNER_TOKEN };
}

/**
 * Another owner with an API session, as a first sign-in leaves them (the owner row, a `ses_`
 * session through the sessions service) without the mail round trip, which the static token's
 * API cannot make; signInOwner (owners.ts) goes through the real magic link.
 *
 * On the business plan (no limits) unless `plan` says otherwise: a new owner of the product
 * starts on free (plans.int.test.ts proves it), but a test seeding volume should not meet the
 * free plan's limits by accident. Plan tests pass `{ plan: "free" }`.
 */
export async function seedOwner(
  api: TTestApi,
  email = `owner-${randomUUID()}@example.test`,
  options: { plan?: "free" | "pro" | "business" } = {},
): Promise<TSeedOwner> {
  const owner = await api.db.owner.create({ data: { email, plan: options.plan ?? "business" } });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  return { ownerId: owner.id, token };
}

/** POSTs `body` to `path` as the static owner (or `token`) and answers the created `data`. */
async function post<T>(api: TTestApi, path: string, body: object, token: string | undefined, what: string): Promise<T> {
  return createdData<T>(await api.call("POST", path, { token, body }), what);
}

// --- businesses and projects ---

// Names are unique per owner (businesses) and per business (projects), case-insensitive: the
// defaults are "Atlas" and "Web", then "Atlas 2", "Web 2", … so a test may seed several.
let seededBusinesses = 0;
let seededProjects = 0;
const nth = (base: string, n: number) => (n === 1 ? base : `${base} ${n}`);

export function seedBusiness(api: TTestApi, body: { name?: string; currency?: string } = {}, token?: string): Promise<TBusiness> {
  const name = body.name ?? nth("Atlas", ++seededBusinesses);
  return post(api, "/v1/businesses", { currency: "EUR", ...body, name }, token, "a business");
}

export function seedProject(api: TTestApi, businessId: string, body: { name?: string } = {}, token?: string): Promise<TProject> {
  const name = body.name ?? nth("Web", ++seededProjects);
  return post(api, `/v1/businesses/${businessId}/projects`, { ...body, name }, token, "a project");
}

// --- agents ---

export type TTestGrant = {
  scope: string;
  resource: string;
  level: "recommend" | "execute";
  daily_limit_minor?: number;
  monthly_limit_minor?: number;
  currency?: string;
  over_limit?: "approval" | "deny";
};

/** A grant on one business: `ads`, `execute`, no limits unless `overrides` say otherwise. */
export function businessGrant(businessId: string, overrides: Partial<TTestGrant> = {}): TTestGrant {
  return { scope: "ads", resource: `business:${businessId}`, level: "execute", ...overrides };
}

/** An agent (no grants unless given) and its token, shown once by POST /v1/agents. */
export async function seedAgent(
  api: TTestApi,
  body: { name?: string; grants?: TTestGrant[]; allowed_ip_ranges?: string[]; token_expires_at?: string } = {},
  ownerToken?: string,
): Promise<{ id: string; token: string }> {
  const agent = await post<{ id: string; token: string }>(
    api,
    "/v1/agents",
    { name: "Test agent", ...body },
    ownerToken,
    "an agent",
  );
  return { id: agent.id, token: agent.token };
}

/** A pending approval: an agent's data request (POST /v1/data-requests). */
export async function seedDataRequest(api: TTestApi, agentToken: string): Promise<{ id: string }> {
  const body = { action: "provide_data", description: "bank statements", reason: "for the forecast" };
  return (await post<{ approval: { id: string } }>(api, "/v1/data-requests", body, agentToken, "a data request")).approval;
}

// --- the ledger ---

/** Where a ledger record belongs: exactly one of a business, a project, or personal. */
type TScoped = ({ business_id: string } | { project_id: string } | { personal: true }) & Record<string, unknown>;

const EVENT_PATHS = { expense: "/v1/expenses", revenue: "/v1/revenues", planned_expense: "/v1/planned-expenses" } as const;

/** A manual event of 42.00 EUR on 2026-01-15, unless `body` says otherwise. */
export function seedEvent(api: TTestApi, type: keyof typeof EVENT_PATHS, body: TScoped, token?: string): Promise<TEvent> {
  const defaults = { amount_minor: 4200, currency: "EUR", occurred_on: "2026-01-15" };
  return post(api, EVENT_PATHS[type], { ...defaults, ...body }, token, `a ${type}`);
}

/** A monthly "Design tool" of 9.99 EUR charged next on 2026-12-01, unless `body` says otherwise. */
export function seedSubscription(api: TTestApi, body: TScoped, token?: string): Promise<TSubscription> {
  const defaults = {
    name: "Design tool",
    amount_minor: 999,
    currency: "EUR",
    billing_interval: "month",
    next_charge_on: "2026-12-01",
  };
  return post(api, "/v1/subscriptions", { ...defaults, ...body }, token, "a subscription");
}

/** An active budget reservation of 50.00 EUR for "Q4 ads", unless `body` says otherwise. */
export function seedReservation(api: TTestApi, body: TScoped, token?: string): Promise<TReservation> {
  return post(
    api,
    "/v1/budget-reservations",
    { amount_minor: 5000, currency: "EUR", purpose: "Q4 ads", ...body },
    token,
    "a reservation",
  );
}

// --- integrations and imports ---

/** A generic signed webhook through POST /v1/integrations/generic/connect, with its secret (shown once). */
export function seedGenericWebhook(
  api: TTestApi,
  body: { business_id: string; name?: string },
  token?: string,
): Promise<TConnectGenericResult> {
  return post(api, "/v1/integrations/generic/connect", body, token, "a generic webhook");
}

/**
 * An integration row. Connecting through the API is what the integration tests test; the other
 * suites need states connect does not make: a generic webhook signed with a secret the test
 * chose, an active search_ads without its OAuth round trip, an integration of no business or
 * connected on a given day. The account id is a fresh one unless given (generic has none).
 */
export async function seedIntegration(
  db: TTestApi["db"],
  fields: {
    ownerId: string;
    provider: string;
    businessId?: string | null;
    accountId?: string | null;
    name?: string;
    /** The signing secret of a generic webhook or a provider account (stored encrypted, as connect stores it). */
    secret?: string;
    status?: string;
    createdAt?: Date;
    lastSyncAt?: Date;
  },
): Promise<string> {
  const { secret, ...rest } = fields;
  const row = await db.integration.create({
    data: {
      name: fields.provider,
      accountId: fields.provider === "generic" ? null : `acct_${randomUUID()}`,
      ...rest,
      ...(secret === undefined ? {} : { secretEncrypted: await encryptSecret(secret) }),
    },
    select: { id: true },
  });
  return row.id;
}

/** A statement import's preview (POST /v1/imports) of one CSV line, or of `csv`. */
export async function seedImport(
  api: TTestApi,
  body: { business_id: string; csv?: string; account?: string },
  token?: string,
): Promise<{ import_id: string }> {
  const csv = body.csv ?? "Date,Amount,Currency,Description\n2026-11-01,-12.50,EUR,Coffee\n";
  const fields = { business_id: body.business_id, ...(body.account ? { account: body.account } : {}) };
  const response = await callMultipart(
    api.handler,
    "/v1/imports",
    { fields, file: { bytes: csv } },
    token === undefined ? {} : { token },
  );
  return createdData(response, "an import");
}
