import type { Metadata } from "next";
import { EventsView } from "@/components/events/events-view";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Events" };
export const dynamic = "force-dynamic";

export default async function EventsPage() {
  const me = await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Events"
        lead="Every expense, revenue and planned cost, in its own currency and in your base currency at the rate used."
      />
      <EventsView defaultCurrency={me.base_currency} />
    </div>
  );
}
