import type { Metadata } from "next";
import { BackLink, PageHeader } from "@/components/panel/page-header";
import { SESSIONS_PAGE_SIZE } from "@/components/panel/page-size";
import { SessionsView } from "@/components/sessions/sessions-view";
import { requireOwnerSession } from "@/server/auth/panel-session";
import { getOwnerCaller } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Sessions" };
export const dynamic = "force-dynamic";

export default async function SessionsPage() {
  const [{ actor }, caller] = await Promise.all([requireOwnerSession(), getOwnerCaller()]);
  const firstPage = await caller.sessions.find({ status: "active", limit: SESSIONS_PAGE_SIZE });

  return (
    <div className="page">
      <BackLink href="/settings">Settings</BackLink>
      <PageHeader
        title="Sessions"
        lead="Where you are signed in. Revoke anything you do not recognise; its next request is refused."
      />
      <SessionsView initialFilter="active" initialPage={firstPage} staticOwner={actor.credential === "static"} />
    </div>
  );
}
