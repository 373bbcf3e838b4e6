import { router } from "../trpc/init";
import { createSubscriptionRoute } from "./create-subscription";
import { findBusinessSubscriptionsRoute } from "./find-business-subscriptions";
import { findPersonalSubscriptionsRoute } from "./find-personal-subscriptions";
import { findSubscriptionsRoute } from "./find-subscriptions";
import { getSubscriptionCapacityRoute } from "./get-subscription-capacity";
import { getSubscriptionRoute } from "./get-subscription";
import { putSubscriptionAllocationsRoute } from "./put-subscription-allocations";
import { putSubscriptionCapacityRoute } from "./put-subscription-capacity";
import { updateSubscriptionRoute } from "./update-subscription";

export const subscriptionsRouter = router({
  find: findSubscriptionsRoute,
  findForBusiness: findBusinessSubscriptionsRoute,
  findPersonal: findPersonalSubscriptionsRoute,
  create: createSubscriptionRoute,
  get: getSubscriptionRoute,
  update: updateSubscriptionRoute,
  putAllocations: putSubscriptionAllocationsRoute,
  getCapacity: getSubscriptionCapacityRoute,
  putCapacity: putSubscriptionCapacityRoute,
});
