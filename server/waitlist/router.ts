import { router } from "../trpc/init";
import { findWaitlistSourcesRoute } from "./find-waitlist-sources";
import { joinWaitlistRoute } from "./join-waitlist";

/** GET /v1/waitlist is a plain route (routes.ts): one path answers JSON or CSV. */
export const waitlistRouter = router({
  join: joinWaitlistRoute,
  findSources: findWaitlistSourcesRoute,
});
