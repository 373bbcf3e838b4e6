import type { Metadata } from "next";
import { PageHeader } from "@/components/panel/page-header";
import { SubscriptionsView } from "@/components/subscriptions/subscriptions-view";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Subscriptions" };
export const dynamic = "force-dynamic";

export default async function SubscriptionsPage() {
  const me = await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Subscriptions"
        lead="Recurring costs, what they cost in your base currency today, and how each one splits over its business's projects."
      />
      <SubscriptionsView defaultCurrency={me.base_currency} />
    </div>
  );
}
