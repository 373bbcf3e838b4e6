// Tenant isolation across every resource type that exists, with two owners signed in through
// the real magic-link flow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "./helpers/api";
import { assertIsolation, isolationCases, type TOwner } from "./helpers/isolation";
import { signInOwner, stopSharedSmtpSink } from "./helpers/owners";

let api: TTestApi;
let a: TOwner;
let b: TOwner;

beforeAll(async () => {
  api = await createTestApi({ env: { AUTH_MODE: "session" } });
  a = await signInOwner(api, "owner-a@example.test");
  b = await signInOwner(api, "owner-b@example.test");
  // New owners start on free; each case below seeds its own records (a business per case), more
  // than free allows, so both owners are moved to business (no limits).
  await api.db.owner.updateMany({ where: { id: { in: [a.ownerId, b.ownerId] } }, data: { plan: "business" } });
});
afterAll(async () => {
  await stopSharedSmtpSink();
  await api?.close();
});

describe("tenant isolation", () => {
  it("signs in two distinct owners with real session tokens", () => {
    expect(a.token).toMatch(/^ses_/);
    expect(b.token).toMatch(/^ses_/);
    expect(a.ownerId).not.toBe(b.ownerId);
  });

  it.each(isolationCases.map((c) => [c.resource, c] as const))("owner B never sees owner A's %s", async (_name, testCase) => {
    await assertIsolation(api, a, b, [testCase]);
  });

  it("and the other way round", async () => {
    await assertIsolation(api, b, a);
  });
});
