import type { Metadata } from "next";
import { timeZoneOrUtc, todayIn } from "@/lib/days";
import { GoalsView } from "@/components/goals/goals-view";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Goals" };
export const dynamic = "force-dynamic";

export default async function GoalsPage() {
  const me = await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Goals"
        lead="Targets for a business, a project or your own money: money to keep free, revenue to earn, a spending cap, days of runway. Progress is measured on your books each time you look."
      />
      <GoalsView defaultCurrency={me.base_currency} today={todayIn(timeZoneOrUtc(me.timezone))} />
    </div>
  );
}
