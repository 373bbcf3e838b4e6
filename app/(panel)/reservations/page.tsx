import type { Metadata } from "next";
import { PageHeader } from "@/components/panel/page-header";
import { ReservationsView } from "@/components/reservations/reservations-view";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Budget reservations" };
export const dynamic = "force-dynamic";

export default async function ReservationsPage() {
  const me = await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Budget reservations"
        lead="Money set aside for a purpose, in its own currency and in your base currency at today's rate."
      />
      <ReservationsView defaultCurrency={me.base_currency} />
    </div>
  );
}
