// Tenant isolation, proven with two real owners (magic-link sessions): for every resource type,
// owner A's record is invisible to owner B — 404 on every path that names it, absent from
// every list. A later module adds its resource by appending an isolation case.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { TTestApi } from "./api";
import { expectApiError } from "./api-error";
import {
  createdData,
  seedAgent,
  seedBusiness,
  seedDataRequest,
  seedEvent,
  seedGenericWebhook,
  seedImport,
  seedProject,
  seedReservation,
  seedSubscription,
} from "./seed";

export type TOwner = { token: string; ownerId: string };

export type TIsolationCase = {
  resource: string;
  /** Creates one record as owner A (through the API) and returns its id. */
  create: (api: TTestApi, a: TOwner) => Promise<string>;
  /** Requests naming the record; each must answer 404 not_found to owner B. */
  requests: (id: string) => Array<{ method: string; path: string; body?: unknown }>;
  /** Lists of owner B that must never contain the id. */
  lists: string[];
};

async function businessOf(api: TTestApi, a: TOwner): Promise<string> {
  // Business names are unique per owner (case-insensitive), and one owner A serves every case.
  return (await seedBusiness(api, { name: `A's ${randomUUID().slice(0, 8)}` }, a.token)).id;
}

export const isolationCases: TIsolationCase[] = [
  {
    resource: "business",
    create: businessOf,
    requests: (id) => [
      { method: "GET", path: `/v1/businesses/${id}` },
      { method: "PATCH", path: `/v1/businesses/${id}`, body: { name: "B was here" } },
      { method: "GET", path: `/v1/businesses/${id}/projects` },
      { method: "POST", path: `/v1/businesses/${id}/projects`, body: { name: "B's project" } },
      { method: "GET", path: `/v1/businesses/${id}/project-health` },
      { method: "GET", path: `/v1/businesses/${id}/context` },
    ],
    lists: ["/v1/businesses?limit=200"],
  },
  {
    resource: "project",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [
      { method: "GET", path: `/v1/projects/${id}` },
      { method: "PATCH", path: `/v1/projects/${id}`, body: { name: "B was here" } },
    ],
    lists: [],
  },
  {
    resource: "agent",
    create: async (api, a) => (await seedAgent(api, { name: "A's agent" }, a.token)).id,
    requests: (id) => [
      { method: "GET", path: `/v1/agents/${id}` },
      { method: "PATCH", path: `/v1/agents/${id}`, body: { name: "B was here" } },
      { method: "POST", path: `/v1/agents/${id}/rotate-token`, body: {} },
      { method: "POST", path: `/v1/agents/${id}/revoke`, body: {} },
      {
        method: "POST",
        path: "/v1/permission-requests",
        body: { agent_id: id, grant: { scope: "ads", resource: "*", level: "execute" } },
      },
      // B may not record a decision naming A's agent (on B's own personal scope).
      { method: "POST", path: "/v1/agent-decisions", body: { agent_id: id, personal: true, title: "B's decision" } },
      { method: "GET", path: `/v1/agents/${id}/passport` },
      { method: "PUT", path: `/v1/agents/${id}/passport`, body: { purpose: "B was here" } },
      { method: "POST", path: `/v1/agents/${id}/passport/from-template`, body: { template_id: "bookkeeper" } },
    ],
    lists: ["/v1/agents?limit=200"],
  },
  {
    // Recorded by A's agent with its own token, on A's business.
    resource: "agent decision",
    create: async (api, a) => {
      const business = await businessOf(api, a);
      const agent = await seedAgent(
        api,
        { name: "decider", grants: [{ scope: "ads", resource: "*", level: "recommend" }] },
        a.token,
      );
      const body = { business_id: business, title: "A's decision", reason: "isolation" };
      return createdData<{ id: string }>(
        await api.call("POST", "/v1/agent-decisions", { token: agent.token, body }),
        "a decision",
      ).id;
    },
    requests: (id) => [{ method: "GET", path: `/v1/decisions/${id}/review` }],
    lists: ["/v1/decision-outcomes?limit=200"],
  },
  {
    resource: "approval",
    create: async (api, a) => (await seedDataRequest(api, (await seedAgent(api, { name: "asker" }, a.token)).token)).id,
    requests: (id) => [
      { method: "GET", path: `/v1/approvals/${id}` },
      { method: "POST", path: `/v1/approvals/${id}/approve`, body: {} },
      { method: "POST", path: `/v1/approvals/${id}/reject`, body: {} },
      { method: "POST", path: `/v1/approvals/${id}/dismiss`, body: {} },
    ],
    lists: ["/v1/approvals?limit=200", "/v1/approvals?kind=request&limit=200"],
  },
  {
    // A pending approval notifies its owner (approval.pending).
    resource: "notification",
    create: async (api, a) => {
      const approval = await seedDataRequest(api, (await seedAgent(api, { name: "notifier" }, a.token)).token);
      const listed = await api.call("GET", "/v1/notifications?code=approval.pending&limit=200", { token: a.token });
      return listed.body.data.find((n: { ref: { id: string } }) => n.ref.id === approval.id).id;
    },
    requests: (id) => [
      { method: "PATCH", path: `/v1/notifications/${id}`, body: { read: true } },
      { method: "PATCH", path: `/v1/notifications/${id}`, body: { read: false } },
    ],
    lists: ["/v1/notifications?limit=200", "/v1/notifications?unread=true&code=approval.*&limit=200"],
  },
  {
    resource: "session",
    create: async (api, a) => {
      const sessions = await api.call("GET", "/v1/me/sessions?limit=200", { token: a.token });
      return sessions.body.data.find((s: { current: boolean }) => s.current).id;
    },
    requests: (id) => [{ method: "POST", path: `/v1/me/sessions/${id}/revoke`, body: {} }],
    lists: ["/v1/me/sessions?limit=200"],
  },
  {
    resource: "audit entry",
    create: async (api, a) => {
      await businessOf(api, a);
      const entries = await api.call("GET", "/v1/audit?limit=1", { token: a.token });
      return entries.body.data[0].id;
    },
    requests: () => [],
    lists: ["/v1/audit?limit=200", "/v1/audit?action=business.created&limit=200", "/v1/audit?target_type=business&limit=200"],
  },
  {
    resource: "event",
    create: async (api, a) => (await seedEvent(api, "expense", { business_id: await businessOf(api, a) }, a.token)).id,
    requests: (id) => [
      { method: "GET", path: `/v1/events/${id}` },
      { method: "POST", path: `/v1/events/${id}/void`, body: {} },
      { method: "POST", path: `/v1/events/${id}/correct`, body: { amount_minor: 100 } },
    ],
    lists: [
      "/v1/events?limit=200",
      "/v1/events?type=expense&limit=200",
      "/v1/events?from=2026-01-15&to=2026-01-15&limit=200",
      "/v1/events?sort=-amount&q=&limit=200",
      "/v1/events?sort=occurred_on&source_type=MANUAL&limit=200",
    ],
  },
  {
    // B can neither write events into A's business or project nor see A's in a filtered list.
    resource: "event scope (business)",
    create: businessOf,
    requests: (id) => {
      const fields = { business_id: id, amount_minor: 100, currency: "EUR", occurred_on: "2026-01-15" };
      return [
        { method: "POST", path: "/v1/expenses", body: fields },
        { method: "POST", path: "/v1/revenues", body: fields },
        { method: "POST", path: "/v1/planned-expenses", body: fields },
        {
          method: "POST",
          path: "/v1/recurring-expenses",
          body: {
            business_id: id,
            name: "B's",
            amount_minor: 100,
            currency: "EUR",
            billing_interval: "month",
            next_charge_on: "2026-01-15",
          },
        },
      ];
    },
    lists: ["/v1/events?limit=200"],
  },
  {
    resource: "event scope (project)",
    create: async (api, a) => {
      const projectId = (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id;
      await seedEvent(api, "planned_expense", { project_id: projectId, amount_minor: 100, occurred_on: "2026-12-15" }, a.token);
      return projectId;
    },
    requests: (id) => [
      {
        method: "POST",
        path: "/v1/expenses",
        body: { project_id: id, amount_minor: 100, currency: "EUR", occurred_on: "2026-01-15" },
      },
    ],
    lists: ["/v1/events?limit=200", "/v1/events?state=planned&limit=200"],
  },
  {
    resource: "subscription",
    create: async (api, a) => (await seedSubscription(api, { personal: true, name: "A's" }, a.token)).id,
    requests: (id) => [
      { method: "GET", path: `/v1/subscriptions/${id}` },
      { method: "PATCH", path: `/v1/subscriptions/${id}`, body: { name: "B was here" } },
      { method: "PUT", path: `/v1/subscriptions/${id}/allocations`, body: { allocations: [] } },
      { method: "GET", path: `/v1/subscriptions/${id}/capacity` },
      { method: "PUT", path: `/v1/subscriptions/${id}/capacity`, body: { unit: "seats", total: 1, used: 0 } },
    ],
    lists: ["/v1/subscriptions?limit=200", "/v1/subscriptions?personal=true&limit=200", "/v1/personal/subscriptions?limit=200"],
  },
  {
    resource: "budget reservation",
    create: async (api, a) => (await seedReservation(api, { business_id: await businessOf(api, a), purpose: "A's" }, a.token)).id,
    requests: (id) => [
      { method: "POST", path: `/v1/budget-reservations/${id}/release`, body: {} },
      { method: "POST", path: `/v1/budget-reservations/${id}/release`, body: { amount_minor: 1 } },
    ],
    lists: ["/v1/budget-reservations?limit=200", "/v1/budget-reservations?status=active&limit=200"],
  },
  {
    // A's business holds a subscription, a reservation and a cash snapshot; B can write none into
    // it (not even a snapshot for the same account and day) and lists none of them.
    resource: "ledger scope (business): subscriptions, reservations, cash snapshots",
    create: async (api, a) => {
      const businessId = await businessOf(api, a);
      await seedSubscription(api, { business_id: businessId, name: "A's", amount_minor: 1, billing_interval: "year" }, a.token);
      await seedReservation(api, { business_id: businessId, amount_minor: 1, purpose: "A's" }, a.token);
      createdData(
        await api.call("POST", "/v1/cash-snapshots", {
          token: a.token,
          body: {
            business_id: businessId,
            amount_minor: 1,
            currency: "EUR",
            as_of: "2026-01-15T08:00:00Z",
            payload: { account_id: "a-main" },
          },
        }),
        "a cash snapshot",
      );
      return businessId;
    },
    requests: (id) => [
      { method: "GET", path: `/v1/businesses/${id}/subscriptions` },
      {
        method: "POST",
        path: "/v1/subscriptions",
        body: {
          business_id: id,
          name: "B's",
          amount_minor: 1,
          currency: "EUR",
          billing_interval: "month",
          next_charge_on: "2026-12-01",
        },
      },
      {
        method: "POST",
        path: "/v1/budget-reservations",
        body: { business_id: id, amount_minor: 1, currency: "EUR", purpose: "B's" },
      },
      {
        method: "POST",
        path: "/v1/cash-snapshots",
        body: {
          business_id: id,
          amount_minor: 2,
          currency: "EUR",
          as_of: "2026-01-15T09:00:00Z",
          payload: { account_id: "a-main" },
        },
      },
    ],
    lists: [
      "/v1/subscriptions?limit=200",
      "/v1/budget-reservations?limit=200",
      "/v1/cash-snapshots?limit=200",
      "/v1/cash-snapshots/latest",
    ],
  },
  {
    resource: "ledger scope (project)",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [
      {
        method: "POST",
        path: "/v1/subscriptions",
        body: {
          project_id: id,
          name: "B's",
          amount_minor: 1,
          currency: "EUR",
          billing_interval: "month",
          next_charge_on: "2026-12-01",
        },
      },
      {
        method: "POST",
        path: "/v1/budget-reservations",
        body: { project_id: id, amount_minor: 1, currency: "EUR", purpose: "B's" },
      },
    ],
    lists: [],
  },
  {
    // GET /v1/goals is always empty (contract), so B's lists cannot show it anyway: the paths that name it must 404.
    resource: "goal",
    create: async (api, a) =>
      createdData<{ id: string }>(
        await api.call("POST", "/v1/goals", {
          token: a.token,
          body: { business_id: await businessOf(api, a), kind: "save", name: "A's", target_amount_minor: 100, currency: "EUR" },
        }),
        "a goal",
      ).id,
    requests: (id) => [
      { method: "GET", path: `/v1/goals/${id}` },
      { method: "PATCH", path: `/v1/goals/${id}`, body: { name: "B was here" } },
      { method: "PATCH", path: `/v1/goals/${id}`, body: { status: "achieved" } },
      { method: "DELETE", path: `/v1/goals/${id}` },
    ],
    lists: ["/v1/goals?limit=200"],
  },
  {
    // B can neither set goals on A's business or project, filter goals by them, nor ask proposals for them.
    resource: "goal scope (business, project)",
    create: businessOf,
    requests: (id) => [
      { method: "POST", path: "/v1/goals", body: { business_id: id, kind: "runway", name: "B's", target_days: 30 } },
      { method: "GET", path: `/v1/goals?business_id=${id}` },
      { method: "POST", path: "/v1/goal-proposals", body: { business_id: id } },
    ],
    lists: [],
  },
  {
    resource: "goal scope (project)",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [
      { method: "POST", path: "/v1/goals", body: { project_id: id, kind: "runway", name: "B's", target_days: 30 } },
      { method: "GET", path: `/v1/goals?project_id=${id}` },
      { method: "POST", path: "/v1/goal-proposals", body: { project_id: id } },
    ],
    lists: [],
  },
  {
    // A's generic integration: B can neither sync it (under any provider path) nor list it.
    resource: "integration",
    create: async (api, a) =>
      (await seedGenericWebhook(api, { business_id: await businessOf(api, a), name: "A's webhook" }, a.token)).integration_id,
    requests: (id) => [
      { method: "POST", path: "/v1/integrations/payments_a/sync", body: { integration_id: id } },
      { method: "POST", path: "/v1/integrations/generic/sync", body: { integration_id: id } },
    ],
    lists: ["/v1/integrations?limit=200", "/v1/integrations?provider=generic&limit=200"],
  },
  {
    // B cannot connect anything into A's business.
    resource: "integration scope (business)",
    create: businessOf,
    requests: (id) => [
      { method: "POST", path: "/v1/integrations/generic/connect", body: { business_id: id } },
      { method: "POST", path: "/v1/integrations/payments_a/connect", body: { business_id: id, account_id: `iso-${id}` } },
      { method: "POST", path: "/v1/integrations/search_ads/connect", body: { business_id: id, account_id: `iso-search-${id}` } },
    ],
    lists: ["/v1/integrations?limit=200"],
  },
  {
    // A's statement import (a preview): B can neither read it, re-preview it nor confirm it.
    resource: "import",
    create: async (api, a) => (await seedImport(api, { business_id: await businessOf(api, a) }, a.token)).import_id,
    requests: (id) => [
      { method: "GET", path: `/v1/imports/${id}` },
      { method: "GET", path: `/v1/imports/${id}?offset=500` },
      { method: "POST", path: `/v1/imports/${id}/confirm`, body: {} },
      { method: "POST", path: `/v1/imports/${id}/preview`, body: {} },
    ],
    lists: [],
  },
  {
    // The bank account A's confirmed import named (its mapping is kept for it): never in B's list.
    resource: "import account (saved mapping)",
    create: async (api, a) => {
      const account = `Iso ${randomUUID()}`;
      const { import_id } = await seedImport(api, { business_id: await businessOf(api, a), account }, a.token);
      const confirmed = await api.call("POST", `/v1/imports/${import_id}/confirm`, { token: a.token, body: {} });
      expect(confirmed.status, confirmed.text).toBe(201);
      return account;
    },
    requests: () => [],
    lists: ["/v1/imports/accounts"],
  },
  {
    // B can neither simulate A's business or project nor name A's records in a simulation's changes.
    resource: "simulation scope (business)",
    create: businessOf,
    requests: (id) => [{ method: "POST", path: "/v1/simulations", body: { business_id: id, changes: [] } }],
    lists: [],
  },
  {
    resource: "simulation scope (project)",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [{ method: "POST", path: "/v1/simulations", body: { project_id: id, changes: [] } }],
    lists: [],
  },
  {
    resource: "simulated subscription",
    create: async (api, a) => (await seedSubscription(api, { business_id: await businessOf(api, a) }, a.token)).id,
    requests: (id) => [
      { method: "POST", path: "/v1/simulations", body: { changes: [{ kind: "cancel_subscription", subscription_id: id }] } },
      {
        method: "POST",
        path: "/v1/simulations",
        body: { changes: [{ kind: "change_subscription", subscription_id: id, amount_minor: 1 }] },
      },
    ],
    lists: [],
  },
  {
    resource: "simulated reservation",
    create: async (api, a) => (await seedReservation(api, { business_id: await businessOf(api, a) }, a.token)).id,
    requests: (id) => [
      { method: "POST", path: "/v1/simulations", body: { changes: [{ kind: "release_reservation", reservation_id: id }] } },
    ],
    lists: [],
  },
];

/** Asserts every case: B gets 404 on A's record and never sees it listed; A still sees it unchanged. */
export async function assertIsolation(
  api: TTestApi,
  a: TOwner,
  b: TOwner,
  cases: TIsolationCase[] = isolationCases,
): Promise<void> {
  for (const testCase of cases) {
    const id = await testCase.create(api, a);
    for (const request of testCase.requests(id)) {
      const response = await api.call(request.method, request.path, { token: b.token, body: request.body });
      expect(response.status, `${testCase.resource}: ${request.method} ${request.path} as owner B`).toBe(404);
      expectApiError(response, 404, "not_found");
    }
    for (const list of testCase.lists) {
      const response = await api.call("GET", list, { token: b.token });
      expect(response.status, `${testCase.resource}: GET ${list} as owner B`).toBe(200);
      expect(response.text, `${testCase.resource}: ${list} as owner B`).not.toContain(id);
    }
  }
}
