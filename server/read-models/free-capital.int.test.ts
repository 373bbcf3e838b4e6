// GET /v1/free-capital (§2.6) on the books of test/helpers/commitments-world.ts; both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createCommitmentsWorld, UNKNOWN_ID, type TCommitmentsWorld } from "../../test/helpers/commitments-world";
import { seedAgent, seedBusiness, seedOwner, seedProject } from "../../test/helpers/seed";

let world: TCommitmentsWorld;
let api: TTestApi;

beforeAll(async () => {
  world = await createCommitmentsWorld();
  api = world.api;
});
afterAll(async () => api?.close());

const get = (query: string, token?: string) => api.call("GET", `/v1/free-capital${query}`, { token });

describe("GET /v1/free-capital", () => {
  it("a business over 30 days: cash − reserved − out commitments (overdue included, inflows never)", async () => {
    const response = await get(`?business_id=${world.atlas}`);
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      scope: { business_id: world.atlas },
      horizon_days: 30,
      from: "2027-06-15",
      to: "2027-07-14",
      cash: { amount_minor: 109_223, as_of: "2027-06-10T08:00:00.000Z" },
      cash_scope: "business",
      reserved_minor: 8_500,
      // 1 000 overdue + 20 000 + 700 + 5 000 (the recurring expense's first charge); 999 + 5 × 92 + 1 000 + 300.
      committed: { planned_minor: 26_700, subscriptions_minor: 2_759, total_minor: 29_459 },
      free_capital_minor: 71_264,
      project: null,
    });
    expect(data.items).toHaveLength(12);
    expect(data.items.every((i: any) => i.direction === "out")).toBe(true);
    expect(data.items.reduce((sum: number, i: any) => sum + i.base_amount_minor, 0)).toBe(29_459);
    expect(Object.keys(response.body.coverage).sort()).toEqual(["cash", "expenses", "overall"]);
    expect(response.body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR" });
  });

  it("a project: its business's pool, and its own share in `project`", async () => {
    const web = (await get(`?project_id=${world.web}`)).body.data;
    expect(web).toMatchObject({
      scope: { project_id: world.web, business_id: world.atlas },
      cash_scope: "business",
      cash: { amount_minor: 109_223 },
      reserved_minor: 8_500,
      committed: { total_minor: 29_459 },
      free_capital_minor: 71_264,
      // Its reservation 1 500; P-web 700; S-web 300 + its 3 333 bps of S-shared's 1 000 (333).
      project: {
        project_id: world.web,
        reserved_minor: 1_500,
        committed: { planned_minor: 700, subscriptions_minor: 633, ad_budgets_minor: 0, total_minor: 1_333 },
      },
    });
    // App's 6 667 bps: 666.7 → 667 by the largest remainder (the parts sum to 1 000).
    const app = (await get(`?project_id=${world.app}`)).body.data;
    expect(app.project).toEqual({
      project_id: world.app,
      reserved_minor: 0,
      committed: { planned_minor: 0, subscriptions_minor: 667, ad_budgets_minor: 0, total_minor: 667 },
    });
  });

  it("personal, and the whole owner", async () => {
    expect((await get("?personal=true")).body.data).toMatchObject({
      scope: { personal: true },
      cash_scope: "personal",
      cash: { amount_minor: 5_000 },
      committed: { planned_minor: 400, subscriptions_minor: 0, ad_budgets_minor: 0, total_minor: 400 },
      free_capital_minor: 4_600,
    });
    expect((await get("")).body.data).toMatchObject({
      scope: { owner: true },
      cash_scope: "owner",
      cash: { amount_minor: 134_223 },
      reserved_minor: 8_500,
      committed: { total_minor: 29_859 },
      free_capital_minor: 95_864,
    });
    // personal=false is no scope: the owner.
    expect((await get("?personal=false")).body.data.scope).toEqual({ owner: true });
  });

  it("horizon_days: 1 is today only (the overdue cost and today's charge)", async () => {
    const { data } = (await get(`?business_id=${world.atlas}&horizon_days=1`)).body;
    expect(data).toMatchObject({
      from: "2027-06-15",
      to: "2027-06-15",
      horizon_days: 1,
      committed: { planned_minor: 1_000, subscriptions_minor: 92 },
    });
    expect((await get(`?business_id=${world.atlas}&horizon_days=365`)).body.data.to).toBe("2028-06-13");
  });

  it("display_currency: cash, reserved, planned and subscriptions converted once; the rest recomputed", async () => {
    const { data, fx } = (await get(`?business_id=${world.atlas}&display_currency=USD`)).body;
    // × 1.0842, half even: 118 419.58 → 118 420; 9 215.7 → 9 216; 28 948.14 → 28 948; 2 991.31 → 2 991.
    expect(data).toMatchObject({
      currency: "USD",
      cash: { amount_minor: 118_420 },
      reserved_minor: 9_216,
      committed: { planned_minor: 28_948, subscriptions_minor: 2_991, total_minor: 31_939 },
      free_capital_minor: 118_420 - 9_216 - 31_939,
    });
    expect(fx.display_currency).toBe("USD");
  });

  it("no cash: free capital is null", async () => {
    const dave = await seedOwner(api);
    const business = (await seedBusiness(api, { name: "Dave's" }, dave.token)).id;
    const { data } = (await get(`?business_id=${business}`, dave.token)).body;
    expect(data).toMatchObject({ cash: null, free_capital_minor: null, committed: { total_minor: 0 } });
  });

  it("400 for more than one scope and a bad horizon; 404 for another owner's ids; 403 for an agent", async () => {
    for (const query of [
      `?business_id=${world.atlas}&personal=true`,
      `?business_id=${world.atlas}&project_id=${world.web}`,
      `?project_id=${world.web}&personal=true`,
    ]) {
      const response = await get(query);
      expectApiError(response, 400, "validation_error");
      expect(response.body.error.details.issues[0].path).toBe("business_id");
    }
    for (const horizon of ["0", "366", "1.5", "abc"]) {
      const response = await get(`?horizon_days=${horizon}`);
      expectApiError(response, 400, "validation_error");
      expect(response.body.error.details.issues[0].path).toBe("horizon_days");
    }
    expectApiError(await get("?business_id=nope"), 400, "validation_error");
    const erin = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Theirs" }, erin.token)).id;
    const theirProject = (await seedProject(api, theirs, { name: "P" }, erin.token)).id;
    expectApiError(await get(`?business_id=${theirs}`), 404, "not_found");
    expectApiError(await get(`?project_id=${theirProject}`), 404, "not_found");
    expectApiError(await get(`?project_id=${UNKNOWN_ID}`), 404, "not_found");
    expectApiError(await get(`?business_id=${world.atlas}`, erin.token), 404, "not_found");
    // Agents read free capital with forecast:observe (pinned-wave3 §2.1); finances:observe is not it.
    const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "execute" }] });
    expectApiError(await get("", agent.token), 403, "scope_denied", { details: { required_scope: "forecast:observe" } });
  });
});
