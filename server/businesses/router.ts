import { router } from "../trpc/init";
import { createBusinessRoute } from "./create-business";
import { findBusinessesRoute } from "./find-businesses";
import { getBusinessRoute } from "./get-business";
import { updateBusinessRoute } from "./update-business";

export const businessesRouter = router({
  find: findBusinessesRoute,
  create: createBusinessRoute,
  get: getBusinessRoute,
  update: updateBusinessRoute,
});
