import type { Metadata } from "next";
import { IntegrationsView } from "@/components/integrations/integrations-view";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Integrations" };
export const dynamic = "force-dynamic";

export default async function IntegrationsPage() {
  // Owners only: anyone else goes to the sign-in page before anything renders.
  await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Integrations"
        lead="The payment, ad and billing platforms and your own systems that feed events and signals into your books."
      />
      <IntegrationsView />
    </div>
  );
}
