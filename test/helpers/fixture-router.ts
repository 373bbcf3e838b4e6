// Procedures that exist only in tests, to exercise REST-layer behaviour no real operation
// has yet (deprecation headers, unexpected failures, agent writes and reads of one business).
import { z } from "zod";
import { appRouter } from "../../server/router";
import { requireGrant } from "../../server/access/check-access";
import { defineAgentWrite } from "../../server/approvals/write-registry";
import { performWrite, writeResponse } from "../../server/access/write-pipeline";
import { ZWriteResponse } from "../../server/approvals/approval.schema";
import { requireBusiness } from "../../server/businesses/business-service";
import { createProject } from "../../server/projects/project-service";
import { ZProject } from "../../server/projects/project.schema";
import { mergeRouters, ownerOrAgentProcedure, ownerProcedure, publicProcedure, router } from "../../server/trpc/init";

/**
 * A write an agent may make with the `ads` scope: it "spends" amount_minor on a business by
 * creating a project there, so tests can count how often a write really ran.
 */
export const ZTestSpend = z.object({
  business_id: z.uuid(),
  name: z.string().min(1),
  amount_minor: z.number().int().min(0),
  currency: z.string().length(3),
  reason: z.string().optional(),
});
export const testSpendWrite = defineAgentWrite({
  action: "test_spend.create",
  scope: "ads",
  schema: ZTestSpend,
  resourceOf: async (db, ownerId, input) => {
    await requireBusiness(db, ownerId, input.business_id);
    return { kind: "business", businessId: input.business_id };
  },
  amountOf: async (_db, _ownerId, input) => ({ amountMinor: BigInt(input.amount_minor), currency: input.currency }),
  execute: (tx, caller, input) => createProject(tx, caller, input.business_id, { name: input.name }),
});

const testSpend = ownerOrAgentProcedure("ads")
  .meta({
    openapi: { method: "POST", path: "/v1/test/spend" },
    successStatus: 201,
    otherSuccess: [{ status: 202, body: "pending_approval", description: "Held for the owner's approval." }],
  })
  .input(ZTestSpend)
  .output(ZWriteResponse(ZProject))
  .mutation(async ({ ctx, input }) => writeResponse(await performWrite(ctx, testSpendWrite, input)));

/**
 * A read an agent may make with `finances:observe` that addresses one business, as the contract's
 * coming reads do (GET /v1/businesses/{id}/saas-metrics): the business must be the owner's (404),
 * then an agent needs a grant covering it (403, audited).
 */
const testObserve = ownerOrAgentProcedure("finances:observe")
  .meta({ openapi: { method: "GET", path: "/v1/test/businesses/{id}/observe" } })
  .input(z.object({ id: z.uuid() }))
  .output(z.object({ data: z.object({ id: z.string(), name: z.string() }) }))
  .query(async ({ ctx, input, path }) => {
    const business = await requireBusiness(ctx.db, ctx.actor.ownerId, input.id);
    if (ctx.actor.type === "agent") {
      const call = { operation: path, db: () => ctx.db, requestId: ctx.requestId };
      await requireGrant(ctx.actor, "finances:observe", { kind: "business", businessId: business.id }, call);
    }
    return { data: { id: business.id, name: business.name } };
  });

export function createFixtureRouter() {
  let flakyCalls = 0;
  const fixtures = router({
    deprecatedThing: publicProcedure
      .meta({
        openapi: { method: "GET", path: "/v1/test/deprecated" },
        // Declared 2026-11-20, sunset 101 days later (Versioning 4: at least 90).
        deprecation: {
          since: "2026-11-20",
          sunset: "2027-03-01",
          replacement: "GET /v1/test/deprecated-v2",
          link: "https://example.test/CHANGELOG.md#deprecated-get-v1-test-deprecated",
        },
      })
      .input(z.object({}))
      .output(z.object({ data: z.object({ ok: z.boolean() }) }))
      .query(() => ({ data: { ok: true } })),
    crash: ownerProcedure
      .meta({ openapi: { method: "POST", path: "/v1/test/crash" } })
      .input(z.object({ value: z.string().optional() }))
      .output(z.object({ data: z.object({}) }))
      .mutation(() => {
        throw new Error("secret detail: connection to db-internal:5432 refused");
      }),
    // Fails with an unexpected error on its first call only, then succeeds.
    flaky: ownerProcedure
      .meta({ openapi: { method: "POST", path: "/v1/test/flaky" }, successStatus: 201 })
      .input(z.object({ value: z.string() }))
      .output(z.object({ data: z.object({ calls: z.number() }) }))
      .mutation(() => {
        flakyCalls += 1;
        if (flakyCalls === 1) throw new Error("transient failure");
        return { data: { calls: flakyCalls } };
      }),
    badOutput: ownerProcedure
      .meta({ openapi: { method: "GET", path: "/v1/test/bad-output" } })
      .input(z.object({}))
      .output(z.object({ data: z.object({ amount_minor: z.number().int() }) }))
      .query(() => ({ data: { amount_minor: 1.5 } })),
  });
  return mergeRouters(appRouter, fixtures, router({ testSpend, testObserve }));
}
