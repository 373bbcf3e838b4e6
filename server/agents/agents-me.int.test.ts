// GET /v1/agents/me (pinned-wave2 §3.4) on both engines, with real agent tokens: what an agent
// learns of itself (record without token, passport, grants with the limits used and left today
// and this month after a real counted write, its owner, the contract version), the owner's
// descriptor, ?resource (per scope the most specific covering grant; 400 malformed, 404 unknown
// or another owner's), ?format=markdown (a snapshot of a seeded agent, under 4,000 characters),
// `me` winning over /v1/agents/{id}, access for each kind of caller, the panel's limits view.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createdData, seedAgent, seedIntegration, seedOwner, type TTestGrant } from "../../test/helpers/seed";
import type { TActor } from "../auth/actor";
import { createRequestContext } from "../auth/request-context";
import { ingestSignals } from "../ingest/ingest-service";
import { CONTRACT_VERSION } from "../rest/contract";
import { appRouter } from "../router";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";
import { createContext } from "../trpc/context";
import { createCallerFactory } from "../trpc/init";

const clock = fixedClock("2026-05-08T12:00:00Z");
let api: TTestApi;

type TWorld = {
  ownerId: string;
  token: string;
  atlas: string;
  web: string;
  borealis: string;
  social: string;
  /** ads on Atlas at execute with limits (50.00 a day, 500.00 a month), finances:observe everywhere. */
  optimiser: { id: string; token: string };
  /** Grants on *, Atlas, Web and personal: for ?resource. */
  spread: { id: string; token: string };
  bare: { id: string; token: string };
};
let w: TWorld;

const grant = (scope: string, resource: string, extra: Partial<TTestGrant> = {}): TTestGrant => ({
  scope,
  resource,
  level: "recommend",
  ...extra,
});

async function seedWorld(): Promise<TWorld> {
  const owner = await api.db.owner.create({
    data: {
      plan: "business",
      email: `agents-me-${randomUUID()}@example.test`,
      baseCurrency: "EUR",
      baseCurrencyConfirmed: true,
      timezone: "Europe/Berlin",
    },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  const post = async (path: string, body: object) => createdData(await api.call("POST", path, { token, body }), path);
  const atlas = (await post("/v1/businesses", { name: "Atlas", currency: "EUR" })).id;
  const borealis = (await post("/v1/businesses", { name: "Borealis", currency: "EUR" })).id;
  const web = (await post(`/v1/businesses/${atlas}/projects`, { name: "Web" })).id;
  const social = await seedIntegration(api.db, { ownerId: owner.id, provider: "social_ads", businessId: atlas });
  const optimiser = await seedAgent(
    api,
    {
      name: "Ads optimiser",
      grants: [
        grant("ads", `business:${atlas}`, {
          level: "execute",
          daily_limit_minor: 50_00,
          monthly_limit_minor: 500_00,
          currency: "EUR",
          over_limit: "deny",
        }),
        grant("finances:observe", "*"),
      ],
    },
    token,
  );
  const spread = await seedAgent(
    api,
    {
      name: "Spread",
      grants: [
        grant("ads", "*"),
        grant("ads", `business:${atlas}`),
        grant("finances:observe", `project:${web}`),
        grant("finances:observe", "personal"),
        grant("forecast:observe", `business:${borealis}`),
      ],
    },
    token,
  );
  const bare = await seedAgent(api, { name: "Bare" }, token);
  return { ownerId: owner.id, token, atlas, web, borealis, social, optimiser, spread, bare };
}

beforeAll(async () => {
  api = await createTestApi({ clock });
  w = await seedWorld();
});
afterAll(async () => api?.close());

const me = (token: string, query = "") => api.call("GET", `/v1/agents/me${query}`, { token });

async function meData(token: string, query = "") {
  const response = await me(token, query);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

describe("an agent asking", () => {
  it("learns its record (no token), passport (version 0 by default), grants, owner and the contract version", async () => {
    const data = await meData(w.bare.token);
    expect(Object.keys(data).sort()).toEqual(
      ["access", "actor", "agent", "contract_version", "grants", "owner", "passport", "resource"].sort(),
    );
    expect(data.actor).toEqual({ type: "agent", id: w.bare.id });
    expect(data.access).toBe("grants");
    expect(data.agent).toMatchObject({ id: w.bare.id, name: "Bare", status: "active", grants: [] });
    expect(data.agent).not.toHaveProperty("token");
    expect(JSON.stringify(data)).not.toContain(w.bare.token);
    expect(data.passport).toEqual({
      agent_id: w.bare.id,
      version: 0,
      purpose: "",
      responsibilities: [],
      allowed_actions: [],
      constraints: { max_daily_spend_minor: null, currency: null, businesses: [], notes: null },
      escalation: "",
      template_id: null,
      updated_at: null,
    });
    expect(data.grants).toEqual([]);
    expect(data.resource).toBeNull();
    expect(data.owner).toEqual({ id: w.ownerId, base_currency: "EUR", timezone: "Europe/Berlin", plan: "business" });
    expect(data.contract_version).toBe(CONTRACT_VERSION);
  });

  it("sees each limit's use today and this month after a counted write, and null where a grant has no limit", async () => {
    // The platform reported the campaign's budget (50.00): an executed change counts its increase
    // over that (62.00 − 50.00 = 12.00) against the ads grant, never over the previous it claims.
    const reported = await ingestSignals(api.db, w.ownerId, [
      {
        integration_id: w.social,
        external_id: randomUUID(),
        code: "budget_change_applied",
        occurred_at: "2026-05-08T06:00:00.000Z",
        ref: { campaign_id: "cmp-1" },
        amount_minor: 50_00,
        currency: "EUR",
      },
    ]);
    expect(reported.accepted).toBe(1);
    const change = await api.call("POST", "/v1/ad-budget-changes", {
      token: w.optimiser.token,
      body: {
        integration_id: w.social,
        campaign_id: "cmp-1",
        previous_daily_budget_minor: 50_00,
        new_daily_budget_minor: 62_00,
        currency: "EUR",
        reason: "ROAS above target",
      },
    });
    expect(change.status, change.text).toBe(201);

    const { grants } = await meData(w.optimiser.token);
    expect(grants).toEqual([
      {
        scope: "ads",
        resource: `business:${w.atlas}`,
        level: "execute",
        daily_limit_minor: 50_00,
        monthly_limit_minor: 500_00,
        currency: "EUR",
        over_limit: "deny",
        today: {
          period_start: "2026-05-08",
          resets_at: "2026-05-09T00:00:00.000Z",
          limit_minor: 50_00,
          used_minor: 12_00,
          left_minor: 38_00,
        },
        this_month: {
          period_start: "2026-05-01",
          resets_at: "2026-06-01T00:00:00.000Z",
          limit_minor: 500_00,
          used_minor: 12_00,
          left_minor: 488_00,
        },
      },
      {
        scope: "finances:observe",
        resource: "*",
        level: "recommend",
        daily_limit_minor: null,
        monthly_limit_minor: null,
        currency: null,
        over_limit: "approval",
        today: null,
        this_month: null,
      },
    ]);
  });

  it("another agent of the same owner and another owner's agent each see only themselves", async () => {
    const other = await seedOwner(api);
    const theirs = await seedAgent(api, { name: "Theirs", grants: [grant("ads", "*")] }, other.token);
    const spread = await meData(w.spread.token);
    expect(spread.actor.id).toBe(w.spread.id);
    expect(spread.agent.name).toBe("Spread");
    const foreign = await meData(theirs.token);
    expect(foreign.actor.id).toBe(theirs.id);
    expect(foreign.owner.id).toBe(other.ownerId);
    expect(JSON.stringify(foreign)).not.toContain(w.atlas);
  });

  it("suspended: 403 agent_suspended; revoked: 401 token_revoked", async () => {
    const agent = await seedAgent(api, { name: "Short-lived" }, w.token);
    expect((await me(agent.token)).status).toBe(200);
    await api.call("PATCH", `/v1/agents/${agent.id}`, { token: w.token, body: { status: "suspended" } });
    expectApiError(await me(agent.token), 403, "agent_suspended");
    await api.call("POST", `/v1/agents/${agent.id}/revoke`, { token: w.token, body: {} });
    expectApiError(await me(agent.token), 401, "token_revoked");
  });
});

describe("the owner asking", () => {
  it("gets the owner descriptor", async () => {
    const data = await meData(w.token);
    expect(data).toEqual({
      actor: { type: "owner", id: w.ownerId },
      access: "all",
      agent: null,
      passport: null,
      grants: null,
      resource: null,
      contract_version: CONTRACT_VERSION,
    });
    expect((await meData(w.token, `?resource=business:${w.atlas}`)).resource).toBe(`business:${w.atlas}`);
  });
});

describe("?resource", () => {
  const kept = async (resource: string) =>
    (await meData(w.spread.token, `?resource=${encodeURIComponent(resource)}`)).grants.map(
      (g: { scope: string; resource: string }) => `${g.scope} ${g.resource}`,
    );

  it("keeps per scope the most specific grant covering the resource", async () => {
    expect(await kept(`project:${w.web}`)).toEqual([`ads business:${w.atlas}`, `finances:observe project:${w.web}`]);
    expect(await kept(`business:${w.atlas}`)).toEqual([`ads business:${w.atlas}`]);
    expect(await kept(`business:${w.borealis}`)).toEqual(["ads *", `forecast:observe business:${w.borealis}`]);
    expect(await kept("personal")).toEqual(["ads *", "finances:observe personal"]);
    expect(await kept("*")).toEqual(["ads *"]);
    // Upper case is the same resource, echoed in lower case.
    const upper = await meData(w.spread.token, `?resource=BUSINESS:${w.atlas.toUpperCase()}`);
    expect(upper.resource).toBe(`business:${w.atlas}`);
    expect(upper.grants).toHaveLength(1);
  });

  it("answers 400 for a malformed resource, 404 for an unknown or another owner's (agent and owner alike)", async () => {
    for (const bad of ["business:nope", "team", "business:", `workspace:${w.atlas}`, "project:1234"]) {
      expectApiError(await me(w.spread.token, `?resource=${encodeURIComponent(bad)}`), 400, "validation_error", {
        issue: "resource",
        what: bad,
      });
    }
    const other = await seedOwner(api);
    const theirs = createdData(
      await api.call("POST", "/v1/businesses", { token: other.token, body: { name: "Theirs", currency: "EUR" } }),
      "a business",
    ).id;
    for (const token of [w.spread.token, w.token]) {
      for (const resource of [`business:${theirs}`, `business:${randomUUID()}`, `project:${randomUUID()}`]) {
        expectApiError(await me(token, `?resource=${resource}`), 404, "not_found", { what: resource });
      }
    }
  });
});

describe("?format", () => {
  it("refuses formats other than json and markdown", async () => {
    expectApiError(await me(w.bare.token, "?format=xml"), 400, "validation_error", { issue: "format" });
    expect((await meData(w.bare.token, "?format=json")).access).toBe("grants");
  });

  it("markdown: a stable, prompt-ready text of a seeded agent, under 4,000 characters", async () => {
    // A typical agent: a passport from a template with its businesses and spend cap, two grants, one with limits used.
    const applied = await api.call("POST", `/v1/agents/${w.optimiser.id}/passport/from-template`, {
      token: w.token,
      body: {
        template_id: "ads_optimizer",
        overrides: {
          constraints: { max_daily_spend_minor: 50_00, currency: "EUR", businesses: [w.atlas], notes: "No brand campaigns." },
        },
      },
    });
    expect(applied.status, applied.text).toBe(200);
    const first = await meData(w.optimiser.token, "?format=markdown");
    expect(Object.keys(first)).toEqual(["format", "markdown"]);
    expect(first.format).toBe("markdown");
    const again = await meData(w.optimiser.token, "?format=markdown");
    expect(again.markdown).toBe(first.markdown);
    expect(first.markdown.length).toBeLessThan(4000);

    const agent = await meData(w.optimiser.token);
    const stable = (first.markdown as string)
      .replaceAll(w.optimiser.id, "<agent>")
      .replaceAll(w.ownerId, "<owner>")
      .replaceAll(w.atlas, "<atlas>")
      .replaceAll(agent.agent.token_expires_at, "<token_expires_at>");
    expect(stable).toMatchInlineSnapshot(`
      "# Ads optimiser

      You are the agent "Ads optimiser" (\`<agent>\`, active) acting for the owner \`<owner>\` through this service's API, contract 1.0.0-rc.9. Amounts are integer minor units; the owner's base currency is EUR, time zone Europe/Berlin, plan business. Your token expires <token_expires_at>.

      ## Passport

      Version 1, from the template \`ads_optimizer\`, updated 2026-05-08T12:00:00.000Z.

      **Purpose:** Get more revenue from the ad budget by moving daily budgets between campaigns.

      **Responsibilities:**
      - Watch ad spend against revenue per campaign
      - Raise the budgets of campaigns that pay back and cut those that do not
      - Record each budget change as a decision with the effect it expects

      **Allowed actions:**
      - Change daily ad budgets
      - Read financial summaries and ad reports
      - Record decisions

      **Constraints:**
      - Spend at most 50.00 EUR a day.
      - Work only on: business "Atlas" (\`business:<atlas>\`).
      - No brand campaigns.

      **Escalation:** Ask for approval above the daily limit; stop and tell the owner when spend runs ahead of revenue for 3 days.

      ## Grants

      Grants decide what you may do; the passport only describes. Limits count per UTC day and month.

      - \`ads\` on business "Atlas" (\`business:<atlas>\`); execute: writes run at once within the limits.
        - Today (2026-05-08, UTC): used 12.00 EUR of 50.00 EUR, 38.00 EUR left; resets 2026-05-09T00:00:00.000Z.
        - This month (2026-05-01, UTC): used 12.00 EUR of 500.00 EUR, 488.00 EUR left; resets 2026-06-01T00:00:00.000Z.
        - Over a limit: refused (403 limit_exceeded).
      - \`finances:observe\` on everything (\`*\`); reads what it covers (level recommend).
      "
    `);
  });

  it("markdown follows ?resource, and an agent without passport or grants is told what it can do", async () => {
    const filtered = (await meData(w.spread.token, `?resource=project:${w.web}&format=markdown`)).markdown as string;
    expect(filtered).toContain(`Only the grants covering project "Atlas › Web" (\`project:${w.web}\`)`);
    expect(filtered).toContain(`\`finances:observe\` on project "Atlas › Web"`);
    expect(filtered).not.toContain("`ads` on everything");
    const bare = (await meData(w.bare.token, "?format=markdown")).markdown as string;
    expect(bare).toMatch(/^# Bare\n/);
    expect(bare).toContain("## Passport\n\nNot set yet");
    expect(bare).toContain("## Grants\n\n");
    expect(bare).toContain("None: you may read your own profile");
  });

  it("the owner's markdown says it has all access", async () => {
    const { markdown } = await meData(w.token, "?format=markdown");
    expect(markdown).toBe(
      [
        "# Owner",
        "",
        `You are calling as the owner (\`${w.ownerId}\`) through this service's API, contract ${CONTRACT_VERSION}: every operation is open to you.`,
        "",
        "## Passport",
        "",
        "Passports describe agents; the owner has none.",
        "",
        "## Grants",
        "",
        "None needed: the owner has all access.",
        "",
      ].join("\n"),
    );
  });
});

describe("routing: the literal `me` wins over /v1/agents/{id}", () => {
  it("the route table sends /v1/agents/me to agents.me and a UUID to agents.get", () => {
    const match = (path: string) => {
      const found = api.handler.routes.match("GET", path);
      return found && "route" in found && found.route.target.kind === "procedure" ? found.route.target.procedurePath : null;
    };
    expect(match("/v1/agents/me")).toBe("agents.me");
    expect(match(`/v1/agents/${randomUUID()}`)).toBe("agents.get");
    expect(match(`/v1/agents/${randomUUID()}/passport`)).toBe("passports.get");
  });

  it("over HTTP: the owner's /v1/agents/me is the descriptor (not a 400 for a non-UUID id); /v1/agents/{id} still works", async () => {
    expect((await meData(w.token)).access).toBe("all");
    const byId = await api.call("GET", `/v1/agents/${w.bare.id}`, { token: w.token });
    expect(byId.status).toBe(200);
    expect(byId.body.data.id).toBe(w.bare.id);
    // An agent may ask for itself as `me`, never through the owner-only /v1/agents/{id}.
    expect((await me(w.bare.token)).status).toBe(200);
    expectApiError(await api.call("GET", `/v1/agents/${w.bare.id}`, { token: w.bare.token }), 403, "scope_denied");
  });

  it("is marked experimental in /v1/openapi.json, for owners and agents, with no scope", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    const operation = doc.paths["/v1/agents/me"].get;
    expect(operation["x-experimental"]).toBe(true);
    expect(operation.security).toEqual([{ ownerSession: [] }, { agentToken: [] }]);
    expect(operation["x-required-scope"]).toBeUndefined();
    expect(operation.parameters.map((p: { name?: string }) => p.name)).toEqual(expect.arrayContaining(["resource", "format"]));
  });
});

describe("the panel's limits view (agents.limits, not on /v1)", () => {
  const createCaller = createCallerFactory(appRouter);
  const ownerCaller = (ownerId: string) => {
    const actor: TActor = { type: "owner", ownerId, credential: "session", tokenKey: `test:${ownerId}` };
    return createCaller(
      createContext(createRequestContext(new Headers(), { clock, requestId: "req_limits" }), { db: api.db, actor }),
    );
  };

  it("answers the same grants with usage as agents/me tells the agent, and not_found for another owner's agent", async () => {
    const { data } = await ownerCaller(w.ownerId).agents.limits({ id: w.optimiser.id });
    expect(data).toEqual((await meData(w.optimiser.token)).grants);
    const other = await seedOwner(api);
    await expect(ownerCaller(other.ownerId).agents.limits({ id: w.optimiser.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(api.handler.routes.routes.some((route) => route.path.includes("limits"))).toBe(false);
  });
});
