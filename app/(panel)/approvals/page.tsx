import type { Metadata } from "next";
import type { TApprovalNames } from "@/components/approvals/approval-words";
import { ApprovalsView } from "@/components/approvals/approvals-view";
import { APPROVALS_PAGE_SIZE } from "@/components/panel/page-size";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerCaller } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Approvals" };
export const dynamic = "force-dynamic";

export default async function ApprovalsPage() {
  const caller = await getOwnerCaller();
  // The first page of what waits, and the names to show instead of ids: agents, businesses, ad accounts.
  const [firstPage, agents, businesses, integrations] = await Promise.all([
    caller.approvals.find({ status: "pending", limit: APPROVALS_PAGE_SIZE }),
    caller.agents.find({ limit: 200 }),
    caller.businesses.find({ limit: 200 }),
    caller.integrations.list({ limit: 200 }),
  ]);
  const names: TApprovalNames = {
    businesses: Object.fromEntries(businesses.data.map((business) => [business.id, business.name])),
    integrations: Object.fromEntries(
      integrations.data.map((integration) => [
        integration.id,
        { name: integration.name, account_id: integration.account_id, business_id: integration.business_id },
      ]),
    ),
  };

  return (
    <div className="page">
      <PageHeader
        title="Approvals"
        lead="What your agents asked for, and the changes they proposed that need your consent. Nothing runs until you approve it."
      />
      <ApprovalsView initialPage={firstPage} agents={agents} names={names} />
    </div>
  );
}
