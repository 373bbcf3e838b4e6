import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZLoginEmail } from "./session.schema";
import { LOGIN_TOKEN_LIFETIME, MAX_LIVE_LOGIN_TOKENS } from "./session-tokens";

export const sendMagicLinkMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/auth/magic-link",
    tags: ["Auth"],
    summary: "Mail a sign-in link",
    description: `Starts an owner sign-in: mails a link \`{PUBLIC_BASE_URL}/sign-in/verify?token=<login token>\` to the address.

- No bearer and no Idempotency-Key needed.
- Always 202 \`{ status: "sent" }\`, whether or not the address belongs to an owner (a new address becomes an owner at its first verified sign-in, not here).
- The login token is single-use and works for ${LOGIN_TOKEN_LIFETIME}; only its SHA-256 is stored.
- Throttle: at most ${MAX_LIVE_LOGIN_TOKENS} unused, unexpired links per address. Beyond that the answer is still 202 but no mail is sent until the oldest link expires.
- The email is trimmed and lower-cased; at most 254 characters, else 400 validation_error.`,
  },
  // On top of the per-address throttle: 10 a minute per client IP (server/rest/ip-limit.ts).
  access: { kind: "public", ipLimit: "login" },
  idempotency: "exempt",
  successStatus: 202,
};
export const ZSendMagicLinkRequest = z.object({ email: ZLoginEmail });
export const ZSendMagicLinkResponse = z.object({ data: z.object({ status: z.literal("sent") }) });
