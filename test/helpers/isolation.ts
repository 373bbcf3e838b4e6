// Tenant isolation, proven with two real owners (magic-link sessions): for every resource type,
// owner A's record is invisible to owner B — 404 on every path that names it, absent from
// every list. A later module adds its resource by appending an isolation case. Owner B's requests
// are typed calls of the client (client/), so each is also checked by tsc against the document.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { idempotent, unwrap, type TFinanceClient } from "../../client";
import type { TTestApi } from "./api";
import { expectApiError } from "./api-error";
import { answer, clientFor } from "./client";
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

/** A client result, whatever the operation. */
type TResult = { data?: unknown; error?: unknown; response: Response };

/** A typed call as owner B (checked by tsc against the OpenAPI document), named for a failure message. */
export type TIsolationRequest = { what: string; send: (client: TFinanceClient) => Promise<TResult> };

export type TIsolationCase = {
  resource: string;
  /** Creates one record as owner A (through the API) and returns its id. */
  create: (api: TTestApi, a: TOwner) => Promise<string>;
  /** Requests naming the record; each must answer 404 not_found to owner B. */
  requests: (id: string) => TIsolationRequest[];
  /** Lists of owner B that must never contain the id. */
  lists: TIsolationRequest[];
};

const call = (what: string, send: TIsolationRequest["send"]): TIsolationRequest => ({ what, send });
/** A write's params: a fresh Idempotency-Key (and the path's id). */
const write = () => ({ header: idempotent() });
const writeAt = (id: string) => ({ header: idempotent(), path: { id } });
const at = (id: string) => ({ path: { id } });

async function businessOf(api: TTestApi, a: TOwner): Promise<string> {
  // Business names are unique per owner (case-insensitive), and one owner A serves every case.
  return (await seedBusiness(api, { name: `A's ${randomUUID().slice(0, 8)}` }, a.token)).id;
}

export const isolationCases: TIsolationCase[] = [
  {
    resource: "business",
    create: businessOf,
    requests: (id) => [
      call("GET /v1/businesses/{id}", (c) => c.GET("/v1/businesses/{id}", { params: at(id) })),
      call("PATCH /v1/businesses/{id}", (c) =>
        c.PATCH("/v1/businesses/{id}", { params: writeAt(id), body: { name: "B was here" } }),
      ),
      call("GET /v1/businesses/{id}/projects", (c) => c.GET("/v1/businesses/{id}/projects", { params: at(id) })),
      call("POST /v1/businesses/{id}/projects", (c) =>
        c.POST("/v1/businesses/{id}/projects", { params: writeAt(id), body: { name: "B's project" } }),
      ),
      call("GET /v1/businesses/{id}/project-health", (c) => c.GET("/v1/businesses/{id}/project-health", { params: at(id) })),
      call("GET /v1/businesses/{id}/context", (c) => c.GET("/v1/businesses/{id}/context", { params: at(id) })),
    ],
    lists: [call("GET /v1/businesses", (c) => c.GET("/v1/businesses", { params: { query: { limit: 200 } } }))],
  },
  {
    resource: "project",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [
      call("GET /v1/projects/{id}", (c) => c.GET("/v1/projects/{id}", { params: at(id) })),
      call("PATCH /v1/projects/{id}", (c) => c.PATCH("/v1/projects/{id}", { params: writeAt(id), body: { name: "B was here" } })),
    ],
    lists: [],
  },
  {
    resource: "agent",
    create: async (api, a) => (await seedAgent(api, { name: "A's agent" }, a.token)).id,
    requests: (id) => [
      call("GET /v1/agents/{id}", (c) => c.GET("/v1/agents/{id}", { params: at(id) })),
      call("PATCH /v1/agents/{id}", (c) => c.PATCH("/v1/agents/{id}", { params: writeAt(id), body: { name: "B was here" } })),
      call("POST /v1/agents/{id}/rotate-token", (c) => c.POST("/v1/agents/{id}/rotate-token", { params: writeAt(id), body: {} })),
      call("POST /v1/agents/{id}/revoke", (c) => c.POST("/v1/agents/{id}/revoke", { params: writeAt(id) })),
      call("POST /v1/permission-requests", (c) =>
        c.POST("/v1/permission-requests", {
          params: write(),
          // over_limit has a default, yet the document marks it required in this body (reported).
          body: { agent_id: id, grant: { scope: "ads", resource: "*", level: "execute", over_limit: "approval" } },
        }),
      ),
      // B may not record a decision naming A's agent (on B's own personal scope).
      call("POST /v1/agent-decisions", (c) =>
        c.POST("/v1/agent-decisions", { params: write(), body: { agent_id: id, personal: true, title: "B's decision" } }),
      ),
      call("GET /v1/agents/{id}/passport", (c) => c.GET("/v1/agents/{id}/passport", { params: at(id) })),
      call("PUT /v1/agents/{id}/passport", (c) =>
        c.PUT("/v1/agents/{id}/passport", { params: writeAt(id), body: { purpose: "B was here" } }),
      ),
      call("POST /v1/agents/{id}/passport/from-template", (c) =>
        c.POST("/v1/agents/{id}/passport/from-template", { params: writeAt(id), body: { template_id: "bookkeeper" } }),
      ),
    ],
    lists: [call("GET /v1/agents", (c) => c.GET("/v1/agents", { params: { query: { limit: 200 } } }))],
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
      const decision = await clientFor(api, agent.token).POST("/v1/agent-decisions", { params: write(), body });
      return createdData<{ id: string }>(answer(decision), "a decision").id;
    },
    requests: (id) => [call("GET /v1/decisions/{id}/review", (c) => c.GET("/v1/decisions/{id}/review", { params: at(id) }))],
    lists: [call("GET /v1/decision-outcomes", (c) => c.GET("/v1/decision-outcomes", { params: { query: { limit: 200 } } }))],
  },
  {
    resource: "approval",
    create: async (api, a) => (await seedDataRequest(api, (await seedAgent(api, { name: "asker" }, a.token)).token)).id,
    requests: (id) => [
      call("GET /v1/approvals/{id}", (c) => c.GET("/v1/approvals/{id}", { params: at(id) })),
      call("POST /v1/approvals/{id}/approve", (c) => c.POST("/v1/approvals/{id}/approve", { params: writeAt(id), body: {} })),
      call("POST /v1/approvals/{id}/reject", (c) => c.POST("/v1/approvals/{id}/reject", { params: writeAt(id), body: {} })),
      call("POST /v1/approvals/{id}/dismiss", (c) => c.POST("/v1/approvals/{id}/dismiss", { params: writeAt(id), body: {} })),
    ],
    lists: [
      call("GET /v1/approvals", (c) => c.GET("/v1/approvals", { params: { query: { limit: 200 } } })),
      call("GET /v1/approvals?kind=request", (c) =>
        c.GET("/v1/approvals", { params: { query: { kind: "request", limit: 200 } } }),
      ),
    ],
  },
  {
    // A pending approval notifies its owner (approval.pending).
    resource: "notification",
    create: async (api, a) => {
      const approval = await seedDataRequest(api, (await seedAgent(api, { name: "notifier" }, a.token)).token);
      const listed = await unwrap(
        clientFor(api, a.token).GET("/v1/notifications", { params: { query: { code: "approval.pending", limit: 200 } } }),
      );
      return listed.data.find((n) => n.ref?.id === approval.id)!.id;
    },
    requests: (id) => [
      call("PATCH /v1/notifications/{id} read", (c) =>
        c.PATCH("/v1/notifications/{id}", { params: writeAt(id), body: { read: true } }),
      ),
      call("PATCH /v1/notifications/{id} unread", (c) =>
        c.PATCH("/v1/notifications/{id}", { params: writeAt(id), body: { read: false } }),
      ),
    ],
    lists: [
      call("GET /v1/notifications", (c) => c.GET("/v1/notifications", { params: { query: { limit: 200 } } })),
      call("GET /v1/notifications?unread=true&code=approval.*", (c) =>
        c.GET("/v1/notifications", { params: { query: { unread: "true", code: "approval.*", limit: 200 } } }),
      ),
    ],
  },
  {
    resource: "session",
    create: async (api, a) => {
      const sessions = await unwrap(clientFor(api, a.token).GET("/v1/me/sessions", { params: { query: { limit: 200 } } }));
      return sessions.data.find((s) => s.current)!.id;
    },
    requests: (id) => [
      call("POST /v1/me/sessions/{id}/revoke", (c) => c.POST("/v1/me/sessions/{id}/revoke", { params: writeAt(id) })),
    ],
    lists: [call("GET /v1/me/sessions", (c) => c.GET("/v1/me/sessions", { params: { query: { limit: 200 } } }))],
  },
  {
    resource: "audit entry",
    create: async (api, a) => {
      await businessOf(api, a);
      const entries = await unwrap(clientFor(api, a.token).GET("/v1/audit", { params: { query: { limit: 1 } } }));
      return entries.data[0]!.id;
    },
    requests: () => [],
    lists: [
      call("GET /v1/audit", (c) => c.GET("/v1/audit", { params: { query: { limit: 200 } } })),
      call("GET /v1/audit?action=business.created", (c) =>
        c.GET("/v1/audit", { params: { query: { action: "business.created", limit: 200 } } }),
      ),
      call("GET /v1/audit?target_type=business", (c) =>
        c.GET("/v1/audit", { params: { query: { target_type: "business", limit: 200 } } }),
      ),
    ],
  },
  {
    resource: "event",
    create: async (api, a) => (await seedEvent(api, "expense", { business_id: await businessOf(api, a) }, a.token)).id,
    requests: (id) => [
      call("GET /v1/events/{id}", (c) => c.GET("/v1/events/{id}", { params: at(id) })),
      call("POST /v1/events/{id}/void", (c) => c.POST("/v1/events/{id}/void", { params: writeAt(id), body: {} })),
      call("POST /v1/events/{id}/correct", (c) =>
        c.POST("/v1/events/{id}/correct", { params: writeAt(id), body: { amount_minor: 100 } }),
      ),
    ],
    lists: [
      call("GET /v1/events", (c) => c.GET("/v1/events", { params: { query: { limit: 200 } } })),
      call("GET /v1/events?type=expense", (c) => c.GET("/v1/events", { params: { query: { type: "expense", limit: 200 } } })),
      call("GET /v1/events?from&to", (c) =>
        c.GET("/v1/events", { params: { query: { from: "2026-01-15", to: "2026-01-15", limit: 200 } } }),
      ),
      call("GET /v1/events?sort=-amount&q=", (c) =>
        c.GET("/v1/events", { params: { query: { sort: "-amount", q: "", limit: 200 } } }),
      ),
      call("GET /v1/events?sort=occurred_on&source_type=MANUAL", (c) =>
        c.GET("/v1/events", { params: { query: { sort: "occurred_on", source_type: "MANUAL", limit: 200 } } }),
      ),
    ],
  },
  {
    // B can neither write events into A's business or project nor see A's in a filtered list.
    resource: "event scope (business)",
    create: businessOf,
    requests: (id) => {
      const fields = { business_id: id, amount_minor: 100, currency: "EUR", occurred_on: "2026-01-15" };
      return [
        call("POST /v1/expenses", (c) => c.POST("/v1/expenses", { params: write(), body: fields })),
        call("POST /v1/revenues", (c) => c.POST("/v1/revenues", { params: write(), body: fields })),
        call("POST /v1/planned-expenses", (c) => c.POST("/v1/planned-expenses", { params: write(), body: fields })),
        call("POST /v1/recurring-expenses", (c) =>
          c.POST("/v1/recurring-expenses", {
            params: write(),
            body: {
              business_id: id,
              name: "B's",
              amount_minor: 100,
              currency: "EUR",
              billing_interval: "month",
              next_charge_on: "2026-01-15",
            },
          }),
        ),
      ];
    },
    lists: [call("GET /v1/events", (c) => c.GET("/v1/events", { params: { query: { limit: 200 } } }))],
  },
  {
    resource: "event scope (project)",
    create: async (api, a) => {
      const projectId = (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id;
      await seedEvent(api, "planned_expense", { project_id: projectId, amount_minor: 100, occurred_on: "2026-12-15" }, a.token);
      return projectId;
    },
    requests: (id) => [
      call("POST /v1/expenses", (c) =>
        c.POST("/v1/expenses", {
          params: write(),
          body: { project_id: id, amount_minor: 100, currency: "EUR", occurred_on: "2026-01-15" },
        }),
      ),
    ],
    lists: [
      call("GET /v1/events", (c) => c.GET("/v1/events", { params: { query: { limit: 200 } } })),
      call("GET /v1/events?state=planned", (c) => c.GET("/v1/events", { params: { query: { state: "planned", limit: 200 } } })),
    ],
  },
  {
    resource: "subscription",
    create: async (api, a) => (await seedSubscription(api, { personal: true, name: "A's" }, a.token)).id,
    requests: (id) => [
      call("GET /v1/subscriptions/{id}", (c) => c.GET("/v1/subscriptions/{id}", { params: at(id) })),
      call("PATCH /v1/subscriptions/{id}", (c) =>
        c.PATCH("/v1/subscriptions/{id}", { params: writeAt(id), body: { name: "B was here" } }),
      ),
      call("PUT /v1/subscriptions/{id}/allocations", (c) =>
        c.PUT("/v1/subscriptions/{id}/allocations", { params: writeAt(id), body: { allocations: [] } }),
      ),
      call("GET /v1/subscriptions/{id}/capacity", (c) => c.GET("/v1/subscriptions/{id}/capacity", { params: at(id) })),
      call("PUT /v1/subscriptions/{id}/capacity", (c) =>
        c.PUT("/v1/subscriptions/{id}/capacity", { params: writeAt(id), body: { unit: "seats", total: 1, used: 0 } }),
      ),
    ],
    lists: [
      call("GET /v1/subscriptions", (c) => c.GET("/v1/subscriptions", { params: { query: { limit: 200 } } })),
      call("GET /v1/subscriptions?personal=true", (c) =>
        c.GET("/v1/subscriptions", { params: { query: { personal: "true", limit: 200 } } }),
      ),
      call("GET /v1/personal/subscriptions", (c) => c.GET("/v1/personal/subscriptions", { params: { query: { limit: 200 } } })),
    ],
  },
  {
    resource: "budget reservation",
    create: async (api, a) => (await seedReservation(api, { business_id: await businessOf(api, a), purpose: "A's" }, a.token)).id,
    requests: (id) => [
      call("POST /v1/budget-reservations/{id}/release", (c) =>
        c.POST("/v1/budget-reservations/{id}/release", { params: writeAt(id), body: {} }),
      ),
      call("POST /v1/budget-reservations/{id}/release (part)", (c) =>
        c.POST("/v1/budget-reservations/{id}/release", { params: writeAt(id), body: { amount_minor: 1 } }),
      ),
    ],
    lists: [
      call("GET /v1/budget-reservations", (c) => c.GET("/v1/budget-reservations", { params: { query: { limit: 200 } } })),
      call("GET /v1/budget-reservations?status=active", (c) =>
        c.GET("/v1/budget-reservations", { params: { query: { status: "active", limit: 200 } } }),
      ),
    ],
  },
  {
    // A's business holds a subscription, a reservation and a cash snapshot; B can write none into
    // it (not even a snapshot for the same account and day) and lists none of them.
    resource: "ledger scope (business): subscriptions, reservations, cash snapshots",
    create: async (api, a) => {
      const businessId = await businessOf(api, a);
      await seedSubscription(api, { business_id: businessId, name: "A's", amount_minor: 1, billing_interval: "year" }, a.token);
      await seedReservation(api, { business_id: businessId, amount_minor: 1, purpose: "A's" }, a.token);
      const snapshot = await clientFor(api, a.token).POST("/v1/cash-snapshots", {
        params: write(),
        body: {
          business_id: businessId,
          amount_minor: 1,
          currency: "EUR",
          as_of: "2026-01-15T08:00:00Z",
          payload: { account_id: "a-main" },
        },
      });
      createdData(answer(snapshot), "a cash snapshot");
      return businessId;
    },
    requests: (id) => [
      call("GET /v1/businesses/{id}/subscriptions", (c) => c.GET("/v1/businesses/{id}/subscriptions", { params: at(id) })),
      call("POST /v1/subscriptions", (c) =>
        c.POST("/v1/subscriptions", {
          params: write(),
          body: {
            business_id: id,
            name: "B's",
            amount_minor: 1,
            currency: "EUR",
            billing_interval: "month",
            next_charge_on: "2026-12-01",
          },
        }),
      ),
      call("POST /v1/budget-reservations", (c) =>
        c.POST("/v1/budget-reservations", {
          params: write(),
          body: { business_id: id, amount_minor: 1, currency: "EUR", purpose: "B's" },
        }),
      ),
      call("POST /v1/cash-snapshots", (c) =>
        c.POST("/v1/cash-snapshots", {
          params: write(),
          body: {
            business_id: id,
            amount_minor: 2,
            currency: "EUR",
            as_of: "2026-01-15T09:00:00Z",
            payload: { account_id: "a-main" },
          },
        }),
      ),
    ],
    lists: [
      call("GET /v1/subscriptions", (c) => c.GET("/v1/subscriptions", { params: { query: { limit: 200 } } })),
      call("GET /v1/budget-reservations", (c) => c.GET("/v1/budget-reservations", { params: { query: { limit: 200 } } })),
      call("GET /v1/cash-snapshots", (c) => c.GET("/v1/cash-snapshots", { params: { query: { limit: 200 } } })),
      call("GET /v1/cash-snapshots/latest", (c) => c.GET("/v1/cash-snapshots/latest")),
    ],
  },
  {
    resource: "ledger scope (project)",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [
      call("POST /v1/subscriptions", (c) =>
        c.POST("/v1/subscriptions", {
          params: write(),
          body: {
            project_id: id,
            name: "B's",
            amount_minor: 1,
            currency: "EUR",
            billing_interval: "month",
            next_charge_on: "2026-12-01",
          },
        }),
      ),
      call("POST /v1/budget-reservations", (c) =>
        c.POST("/v1/budget-reservations", {
          params: write(),
          body: { project_id: id, amount_minor: 1, currency: "EUR", purpose: "B's" },
        }),
      ),
    ],
    lists: [],
  },
  {
    // GET /v1/goals is always empty (contract), so B's lists cannot show it anyway: the paths that name it must 404.
    resource: "goal",
    create: async (api, a) => {
      const goal = await clientFor(api, a.token).POST("/v1/goals", {
        params: write(),
        body: { business_id: await businessOf(api, a), kind: "save", name: "A's", target_amount_minor: 100, currency: "EUR" },
      });
      return createdData<{ id: string }>(answer(goal), "a goal").id;
    },
    requests: (id) => [
      call("GET /v1/goals/{id}", (c) => c.GET("/v1/goals/{id}", { params: at(id) })),
      call("PATCH /v1/goals/{id} name", (c) => c.PATCH("/v1/goals/{id}", { params: writeAt(id), body: { name: "B was here" } })),
      call("PATCH /v1/goals/{id} status", (c) =>
        c.PATCH("/v1/goals/{id}", { params: writeAt(id), body: { status: "achieved" } }),
      ),
      call("DELETE /v1/goals/{id}", (c) => c.DELETE("/v1/goals/{id}", { params: writeAt(id) })),
    ],
    lists: [call("GET /v1/goals", (c) => c.GET("/v1/goals", { params: { query: { limit: 200 } } }))],
  },
  {
    // B can neither set goals on A's business or project, filter goals by them, nor ask proposals for them.
    resource: "goal scope (business, project)",
    create: businessOf,
    requests: (id) => [
      call("POST /v1/goals", (c) =>
        c.POST("/v1/goals", { params: write(), body: { business_id: id, kind: "runway", name: "B's", target_days: 30 } }),
      ),
      call("GET /v1/goals?business_id", (c) => c.GET("/v1/goals", { params: { query: { business_id: id } } })),
      call("POST /v1/goal-proposals", (c) => c.POST("/v1/goal-proposals", { params: write(), body: { business_id: id } })),
    ],
    lists: [],
  },
  {
    resource: "goal scope (project)",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [
      call("POST /v1/goals", (c) =>
        c.POST("/v1/goals", { params: write(), body: { project_id: id, kind: "runway", name: "B's", target_days: 30 } }),
      ),
      call("GET /v1/goals?project_id", (c) => c.GET("/v1/goals", { params: { query: { project_id: id } } })),
      call("POST /v1/goal-proposals", (c) => c.POST("/v1/goal-proposals", { params: write(), body: { project_id: id } })),
    ],
    lists: [],
  },
  {
    // A's generic integration: B can neither sync it (under any provider path) nor list it.
    resource: "integration",
    create: async (api, a) =>
      (await seedGenericWebhook(api, { business_id: await businessOf(api, a), name: "A's webhook" }, a.token)).integration_id,
    requests: (id) => [
      call("POST /v1/integrations/payments_a/sync", (c) =>
        c.POST("/v1/integrations/{provider}/sync", {
          params: { header: idempotent(), path: { provider: "payments_a" } },
          body: { integration_id: id },
        }),
      ),
      call("POST /v1/integrations/generic/sync", (c) =>
        c.POST("/v1/integrations/{provider}/sync", {
          params: { header: idempotent(), path: { provider: "generic" } },
          body: { integration_id: id },
        }),
      ),
      call("PUT /v1/integrations/{id}/signing-secret", (c) =>
        c.PUT("/v1/integrations/{id}/signing-secret", {
          params: writeAt(id),
          body: { signing_secret: "b-tries-a-signing-secret-0001" },
        }),
      ),
    ],
    lists: [
      call("GET /v1/integrations", (c) => c.GET("/v1/integrations", { params: { query: { limit: 200 } } })),
      call("GET /v1/integrations?provider=generic", (c) =>
        c.GET("/v1/integrations", { params: { query: { provider: "generic", limit: 200 } } }),
      ),
    ],
  },
  {
    // B cannot connect anything into A's business.
    resource: "integration scope (business)",
    create: businessOf,
    requests: (id) => [
      call("POST /v1/integrations/generic/connect", (c) =>
        c.POST("/v1/integrations/generic/connect", { params: write(), body: { business_id: id } }),
      ),
      call("POST /v1/integrations/payments_a/connect", (c) =>
        c.POST("/v1/integrations/{provider}/connect", {
          params: { header: idempotent(), path: { provider: "payments_a" } },
          body: { business_id: id, account_id: `iso-${id}`, signing_secret: "b-tries-a-business-secret-01" },
        }),
      ),
      call("POST /v1/integrations/search_ads/connect", (c) =>
        c.POST("/v1/integrations/{provider}/connect", {
          params: { header: idempotent(), path: { provider: "search_ads" } },
          body: { business_id: id, account_id: `iso-search-${id}` },
        }),
      ),
    ],
    lists: [call("GET /v1/integrations", (c) => c.GET("/v1/integrations", { params: { query: { limit: 200 } } }))],
  },
  {
    // A's statement import (a preview): B can neither read it, re-preview it nor confirm it.
    resource: "import",
    create: async (api, a) => (await seedImport(api, { business_id: await businessOf(api, a) }, a.token)).import_id,
    requests: (id) => [
      call("GET /v1/imports/{id}", (c) => c.GET("/v1/imports/{id}", { params: at(id) })),
      call("GET /v1/imports/{id}?offset=500", (c) =>
        c.GET("/v1/imports/{id}", { params: { ...at(id), query: { offset: 500 } } }),
      ),
      call("POST /v1/imports/{id}/confirm", (c) => c.POST("/v1/imports/{id}/confirm", { params: writeAt(id), body: {} })),
      call("POST /v1/imports/{id}/preview", (c) => c.POST("/v1/imports/{id}/preview", { params: writeAt(id), body: {} })),
    ],
    lists: [],
  },
  {
    // The bank account A's confirmed import named (its mapping is kept for it): never in B's list.
    resource: "import account (saved mapping)",
    create: async (api, a) => {
      const account = `Iso ${randomUUID()}`;
      const { import_id } = await seedImport(api, { business_id: await businessOf(api, a), account }, a.token);
      const confirmed = await clientFor(api, a.token).POST("/v1/imports/{id}/confirm", { params: writeAt(import_id), body: {} });
      expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(201);
      return account;
    },
    requests: () => [],
    lists: [call("GET /v1/imports/accounts", (c) => c.GET("/v1/imports/accounts"))],
  },
  {
    // B can neither simulate A's business or project nor name A's records in a simulation's changes.
    resource: "simulation scope (business)",
    create: businessOf,
    requests: (id) => [
      call("POST /v1/simulations", (c) => c.POST("/v1/simulations", { body: { business_id: id, changes: [] } })),
    ],
    lists: [],
  },
  {
    resource: "simulation scope (project)",
    create: async (api, a) => (await seedProject(api, await businessOf(api, a), { name: "A's" }, a.token)).id,
    requests: (id) => [call("POST /v1/simulations", (c) => c.POST("/v1/simulations", { body: { project_id: id, changes: [] } }))],
    lists: [],
  },
  {
    resource: "simulated subscription",
    create: async (api, a) => (await seedSubscription(api, { business_id: await businessOf(api, a) }, a.token)).id,
    requests: (id) => [
      call("POST /v1/simulations cancel_subscription", (c) =>
        c.POST("/v1/simulations", { body: { changes: [{ kind: "cancel_subscription", subscription_id: id }] } }),
      ),
      call("POST /v1/simulations change_subscription", (c) =>
        c.POST("/v1/simulations", {
          body: { changes: [{ kind: "change_subscription", subscription_id: id, amount_minor: 1 }] },
        }),
      ),
    ],
    lists: [],
  },
  {
    resource: "simulated reservation",
    create: async (api, a) => (await seedReservation(api, { business_id: await businessOf(api, a) }, a.token)).id,
    requests: (id) => [
      call("POST /v1/simulations release_reservation", (c) =>
        c.POST("/v1/simulations", { body: { changes: [{ kind: "release_reservation", reservation_id: id }] } }),
      ),
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
  const asB = clientFor(api, b.token);
  for (const testCase of cases) {
    const id = await testCase.create(api, a);
    for (const request of testCase.requests(id)) {
      const response = answer(await request.send(asB));
      expect(response.status, `${testCase.resource}: ${request.what} as owner B`).toBe(404);
      expectApiError(response, 404, "not_found");
    }
    for (const list of testCase.lists) {
      const response = answer(await list.send(asB));
      expect(response.status, `${testCase.resource}: ${list.what} as owner B`).toBe(200);
      expect(response.text, `${testCase.resource}: ${list.what} as owner B`).not.toContain(id);
    }
  }
}
