import { router } from "../trpc/init";
import { getMeRoute } from "./get-me";
import { updateMeRoute } from "./update-me";

export const meRouter = router({ get: getMeRoute, update: updateMeRoute });
