import { z } from "zod";
import { isTimeZone } from "../../lib/days";
import { ZCurrency, ZTimestamp, ZUuid } from "../shared/schemas";

export const ZActorRef = z.object({ type: z.enum(["owner", "agent"]), id: z.string() });

export const ZMe = z
  .object({
    id: ZUuid,
    email: z.string(),
    name: z.string(),
    base_currency: ZCurrency,
    timezone: z.string().describe("IANA time zone, e.g. Europe/Berlin."),
    locale: z.string().describe("BCP 47 locale, e.g. en-US."),
    plan: z.string().describe("free, pro or business (GET /v1/plan: limits, usage, trial)."),
    plan_status: z.string().describe("active, trialing or expired (a trial past its end reads expired at once)."),
    created_at: ZTimestamp,
    onboarding: z.object({ base_currency_confirmed: z.boolean() }),
    unread_notifications: z
      .number()
      .int()
      .describe("The owner's unread notifications (read_at null): what GET /v1/notifications?unread=true lists."),
    waitlist_reader: z
      .boolean()
      .describe("true when this owner may read the waitlist (GET /v1/waitlist); anyone else is answered 404 there."),
    actor: ZActorRef,
  })
  .meta({ id: "Me" });
export type TMe = z.infer<typeof ZMe>;

/** What an agent sees of its owner (contract: Me). */
export const ZAgentMe = ZMe.pick({ id: true, base_currency: true, timezone: true, plan: true, actor: true }).meta({
  id: "AgentMe",
});
export type TAgentMe = z.infer<typeof ZAgentMe>;

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

export const ZUpdateMeInput = z
  .object({
    name: z.string().trim().max(200).optional(),
    timezone: z.string().refine(isTimeZone, { message: "must be an IANA time zone, e.g. Europe/Berlin" }).optional(),
    locale: z.string().refine(isLocale, { message: "must be a BCP 47 locale, e.g. en-US" }).optional(),
    base_currency: ZCurrency.optional(),
  })
  .meta({ id: "UpdateMeInput" });
export type TUpdateMeInput = z.infer<typeof ZUpdateMeInput>;
