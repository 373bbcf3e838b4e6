import { router } from "../trpc/init";
import { findSessionsRoute } from "./find-sessions";
import { revokeOtherSessionsRoute } from "./revoke-other-sessions";
import { revokeSessionRoute } from "./revoke-session";
import { sendMagicLinkRoute } from "./send-magic-link";
import { signOutRoute } from "./sign-out";
import { verifyMagicLinkRoute } from "./verify-magic-link";

// Literal paths before parameterised ones: /v1/me/sessions/revoke-others is not {id}.
export const sessionsRouter = router({
  sendMagicLink: sendMagicLinkRoute,
  verifyMagicLink: verifyMagicLinkRoute,
  signOut: signOutRoute,
  find: findSessionsRoute,
  revokeOthers: revokeOtherSessionsRoute,
  revoke: revokeSessionRoute,
});
