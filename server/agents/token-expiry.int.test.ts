// agent.token_expiring (pinned-wave2 §4.1): once per token, a week ahead, for active agents only;
// a rotated token is a new token; two runs at once announce a token once; owners never see each
// other's notices.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { seedAgent, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import { notifyExpiringAgentTokens } from "./token-expiry";

let api: TTestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api?.close());

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number, from = new Date()) => new Date(from.getTime() + days * DAY).toISOString();

async function expiringNotices(owner: TSeedOwner) {
  const response = await api.call("GET", "/v1/notifications?code=agent.token_expiring&limit=100", { token: owner.token });
  expect(response.status, response.text).toBe(200);
  return response.body.data as Array<Record<string, any>>;
}

describe("agent.token_expiring", () => {
  it("tells the owner once, a week ahead, about an active agent's token; not a later or revoked one", async () => {
    const owner = await seedOwner(api);
    const other = await seedOwner(api);
    const soon = await seedAgent(api, { name: "Ads bot", token_expires_at: inDays(5) }, owner.token);
    await seedAgent(api, { name: "Later bot", token_expires_at: inDays(30) }, owner.token);
    const revoked = await seedAgent(api, { name: "Gone bot", token_expires_at: inDays(3) }, owner.token);
    expect((await api.call("POST", `/v1/agents/${revoked.id}/revoke`, { token: owner.token })).status).toBeLessThan(300);

    const now = new Date();
    const first = await notifyExpiringAgentTokens(api.db, now);
    expect(first.notified).toBeGreaterThanOrEqual(1);
    const [notice, ...more] = await expiringNotices(owner);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      code: "agent.token_expiring",
      severity: "warning",
      ref: { type: "agent", id: soon.id },
      title: "The token of agent Ads bot expires in 5 days",
      read_at: null,
    });
    expect(notice!.body).toContain(inDays(5, now).slice(0, 10));
    expect(notice!.body).toMatch(/agt_/);
    expect(await expiringNotices(other)).toEqual([]);

    // Once: the next day's run says nothing more about it.
    await notifyExpiringAgentTokens(api.db, new Date(now.getTime() + DAY));
    expect(await expiringNotices(owner)).toHaveLength(1);

    // Rotated, the agent has a new 90-day token: nothing until that one nears its end.
    const rotated = await api.call("POST", `/v1/agents/${soon.id}/rotate-token`, { token: owner.token, body: {} });
    expect(rotated.status, rotated.text).toBe(200);
    await notifyExpiringAgentTokens(api.db, new Date(now.getTime() + 2 * DAY));
    expect(await expiringNotices(owner)).toHaveLength(1);
    await notifyExpiringAgentTokens(api.db, new Date(now.getTime() + 25 * DAY));
    expect((await expiringNotices(owner)).map((n) => n.title)).toContain("The token of agent Later bot expires in 5 days");
    await notifyExpiringAgentTokens(api.db, new Date(now.getTime() + 85 * DAY));
    expect(await expiringNotices(owner)).toHaveLength(3);
  });

  it("two runs at once announce each token once", async () => {
    const owner = await seedOwner(api);
    await seedAgent(api, { name: "Twin", token_expires_at: inDays(2) }, owner.token);
    const now = new Date();
    await Promise.all([notifyExpiringAgentTokens(api.db, now), notifyExpiringAgentTokens(api.db, now)]);
    expect(await expiringNotices(owner)).toHaveLength(1);
  });

  it("a muted agent.token_expiring creates nothing, and the token still counts as told", async () => {
    const owner = await seedOwner(api);
    const muted = await api.call("PATCH", "/v1/me/notification-preferences", {
      token: owner.token,
      body: { muted_codes: ["agent.*"] },
    });
    expect(muted.status, muted.text).toBe(200);
    await seedAgent(api, { name: "Quiet", token_expires_at: inDays(4) }, owner.token);
    await notifyExpiringAgentTokens(api.db, new Date());
    expect(await expiringNotices(owner)).toEqual([]);
  });
});
