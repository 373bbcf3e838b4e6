import type { Metadata } from "next";
import { BusinessesView } from "@/components/businesses/businesses-view";
import { BUSINESSES_PAGE_SIZE } from "@/components/panel/page-size";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Businesses" };
export const dynamic = "force-dynamic";

export default async function BusinessesPage() {
  const caller = await getOwnerCaller();
  // The first page is rendered on the server; the client takes over for later pages.
  const [firstPage, me] = await Promise.all([caller.businesses.find({ limit: BUSINESSES_PAGE_SIZE }), getOwnerMe()]);

  return (
    <div className="page">
      <PageHeader
        title="Businesses"
        lead="The companies you keep books for. Each one reports in its own currency and holds its projects."
      />
      <BusinessesView initialPage={firstPage} defaultCurrency={me.base_currency} />
    </div>
  );
}
