// GET /v1/audit's filters as the Audit log page uses them: actor, action (exact or prefix*),
// the target (additive in issue 14: target_type, target_id), the date range, and cursor pages.
// Another owner's entries are never seen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedBusiness, seedOwner, seedReservation } from "../../test/helpers/seed";

let api: TTestApi;
let businessId: string;
let reservationId: string;

type TEntry = {
  id: string;
  action: string;
  actor: { type: string; id: string | null };
  target: { type: string; id: string } | null;
};

const audit = async (query: string, token?: string) => {
  const response = await api.call<{ data: TEntry[]; page: { next_cursor: string | null; has_more: boolean } }>(
    "GET",
    `/v1/audit${query}`,
    { token },
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
};

beforeAll(async () => {
  api = await createTestApi();
  businessId = (await seedBusiness(api, { name: "Atlas" })).id;
  reservationId = (await seedReservation(api, { business_id: businessId })).id;
  await seedReservation(api, { personal: true });
  const released = await api.call("POST", `/v1/budget-reservations/${reservationId}/release`, { body: {} });
  expect(released.status, released.text).toBe(200);
});
afterAll(async () => api?.close());

describe("GET /v1/audit filters", () => {
  it("filters by target: every entry about one record, newest first", async () => {
    const body = await audit(`?target_type=budget_reservation&target_id=${reservationId}`);
    expect(body.data.map((e) => e.action)).toEqual(["reservation.released", "reservation.created"]);
    expect(body.data.every((e) => e.target?.id === reservationId)).toBe(true);
    const byType = await audit("?target_type=budget_reservation");
    expect(byType.data.map((e) => e.action).sort()).toEqual([
      "reservation.created",
      "reservation.created",
      "reservation.released",
    ]);
    expect((await audit("?target_id=5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00")).data).toEqual([]);
  });

  it("combines actor, action prefix and date range", async () => {
    const owner = await audit("?actor_type=owner&action=reservation.*");
    expect(owner.data).toHaveLength(3);
    expect(owner.data.every((e) => e.actor.type === "owner")).toBe(true);
    expect((await audit("?actor_type=agent&action=reservation.*")).data).toEqual([]);
    expect((await audit("?action=business.created")).data.map((e) => e.target?.id)).toEqual([businessId]);
    expect((await audit("?action=reservation.*&to=2000-01-01")).data).toEqual([]);
    expect((await audit("?action=reservation.*&from=2000-01-01")).data).toHaveLength(3);
  });

  it("pages with the cursor under a filter", async () => {
    const first = await audit("?action=reservation.*&limit=2");
    expect(first.data).toHaveLength(2);
    expect(first.page.has_more).toBe(true);
    const second = await audit(`?action=reservation.*&limit=2&cursor=${first.page.next_cursor}`);
    expect(second.data).toHaveLength(1);
    expect(second.page).toEqual({ next_cursor: null, has_more: false });
    expect(new Set([...first.data, ...second.data].map((e) => e.id)).size).toBe(3);
  });

  it("refuses a filter beyond its bounds with the contract's 400", async () => {
    expectApiError(await api.call("GET", `/v1/audit?target_type=${"x".repeat(65)}`), 400, "validation_error");
    expectApiError(await api.call("GET", "/v1/audit?actor_type=public"), 400, "validation_error");
  });

  it("never shows another owner's entries, and is owner-only", async () => {
    const other = await seedOwner(api);
    expect((await audit(`?target_id=${reservationId}`, other.token)).data).toEqual([]);
    const agent = await seedAgent(api);
    expectApiError(await api.call("GET", "/v1/audit", { token: agent.token }), 403, "scope_denied");
  });

  it("documents the new parameters in /v1/openapi.json", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json")).body;
    const names = doc.paths["/v1/audit"].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["actor_type", "actor_id", "action", "target_type", "target_id", "from", "to"]));
  });
});
