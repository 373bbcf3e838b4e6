// Procedures that exist only in tests, to exercise REST-layer behaviour no real operation
// has yet (deprecation headers, unexpected failures).
import { z } from "zod";
import { appRouter } from "../../server/router";
import { mergeRouters, ownerProcedure, publicProcedure, router } from "../../server/trpc/init";

export function createFixtureRouter() {
  let flakyCalls = 0;
  const fixtures = router({
    deprecatedThing: publicProcedure
      .meta({
        openapi: { method: "GET", path: "/v1/test/deprecated" },
        deprecation: { sunset: "2027-03-01", link: "https://example.test/changelog#deprecated-thing" },
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
  return mergeRouters(appRouter, fixtures);
}
