import type { Metadata } from "next";
import { NotificationsView } from "@/components/notifications/notifications-view";
import { NOTIFICATIONS_PAGE_SIZE } from "@/components/panel/page-size";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerCaller } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

export default async function NotificationsPage() {
  const caller = await getOwnerCaller();
  const firstPage = await caller.notifications.find({ limit: NOTIFICATIONS_PAGE_SIZE });

  return (
    <div className="page">
      <PageHeader
        title="Notifications"
        lead="What needs your attention: alerts from your integrations, approvals waiting for you, imports with rejected rows and agent tokens about to expire. Choose where else they are sent in Settings."
      />
      <NotificationsView initialPage={firstPage} />
    </div>
  );
}
