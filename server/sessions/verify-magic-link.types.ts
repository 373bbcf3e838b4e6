import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZNewSession } from "./session.schema";
import { LOGIN_TOKEN_LIFETIME, SESSION_LIFETIME } from "./session-tokens";

export const verifyMagicLinkMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/auth/verify",
    tags: ["Auth"],
    summary: "Exchange a login token for a session",
    description: `Spends the login token of a sign-in link and opens an owner session.

- No bearer and no Idempotency-Key needed.
- The login token works once, for ${LOGIN_TOKEN_LIFETIME} after the link was requested. Unknown, used or expired: 401 login_token_invalid. Of concurrent verifies of one token exactly one succeeds.
- The first verified sign-in of an address creates its owner.
- The answer holds \`session_token\` (\`ses_…\`, shown only here) for \`Authorization: Bearer\`. A session lasts ${SESSION_LIFETIME} from sign-in (\`expires_at\`; use does not extend it); then 401 session_expired. A revoked session answers 401 session_revoked.`,
  },
  access: { kind: "public" },
  idempotency: "exempt",
};
export const ZVerifyMagicLinkRequest = z.object({
  token: z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(512)
    .describe("The `token` parameter of the sign-in link."),
});
export const ZVerifyMagicLinkResponse = z.object({ data: ZNewSession });
