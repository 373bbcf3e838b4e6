import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { LandingPage } from "@/components/landing/landing-page";
import { decodeWaitlistFlash, WAITLIST_FLASH_COOKIE, WAITLIST_FLASH_PARAM, WAITLIST_FLASH_VALUE } from "@/lib/waitlist-flash";
import { getPanelSession, PANEL_HOME } from "@/server/auth/panel-session";

export const metadata: Metadata = {
  title: { absolute: "Finance back office: the books of every business you run, agents included" },
  description: "One place for the money of all your businesses and the AI agents that spend for them. Join the waitlist.",
};
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// A signed-in owner opens on the Overview, as before; everyone else sees the landing page.
export default async function Home({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const { actor } = await getPanelSession();
  if (actor.type === "owner") redirect(PANEL_HOME);

  const params = await searchParams;
  // Back from the form's no-JavaScript post with errors (app/api/waitlist/route.ts): what was typed, and why not.
  const flash =
    first(params[WAITLIST_FLASH_PARAM]) === WAITLIST_FLASH_VALUE
      ? decodeWaitlistFlash((await cookies()).get(WAITLIST_FLASH_COOKIE)?.value)
      : null;
  const source = flash ? flash.source : (first(params.utm_source) ?? "");
  return <LandingPage source={source} initial={flash ? { email: flash.email, errors: flash.errors } : null} />;
}
