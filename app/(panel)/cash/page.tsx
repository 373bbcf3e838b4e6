import type { Metadata } from "next";
import { CashView } from "@/components/cash/cash-view";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Cash" };
export const dynamic = "force-dynamic";

export default async function CashPage() {
  const me = await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Cash"
        lead="What your bank accounts hold: record a balance, and see the latest one of each account with the moment it was read."
      />
      <CashView defaultCurrency={me.base_currency} />
    </div>
  );
}
