import type { Metadata } from "next";
import Link from "next/link";
import { SESSIONS_PAGE_SIZE } from "@/components/panel/page-size";
import { SessionsView } from "@/components/sessions/sessions-view";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { requireOwnerSession } from "@/server/auth/panel-session";
import { getOwnerCaller } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Sessions" };
export const dynamic = "force-dynamic";

export default async function SessionsPage() {
  const [{ actor }, caller] = await Promise.all([requireOwnerSession(), getOwnerCaller()]);
  const firstPage = await caller.sessions.find({ status: "active", limit: SESSIONS_PAGE_SIZE });

  return (
    <div className="page">
      <Link href="/settings" className="back-link">
        <ArrowLeftIcon />
        Settings
      </Link>
      <header className="page-header">
        <div>
          <h1>Sessions</h1>
          <p>Where you are signed in. Revoke anything you do not recognise; its next request is refused.</p>
        </div>
      </header>
      <SessionsView initialFilter="active" initialPage={firstPage} staticOwner={actor.credential === "static"} />
    </div>
  );
}
