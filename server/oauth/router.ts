import { router } from "../trpc/init";
import { approveAuthorizationRoute } from "./approve-authorization";

export const oauthRouter = router({
  approve: approveAuthorizationRoute,
});
