import type { Metadata } from "next";
import { ApprovalsView } from "@/components/approvals/approvals-view";
import { APPROVALS_PAGE_SIZE } from "@/components/panel/page-size";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerCaller } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Approvals" };
export const dynamic = "force-dynamic";

export default async function ApprovalsPage() {
  const caller = await getOwnerCaller();
  // The first page of what waits, and the agents' names to show beside each item.
  const [firstPage, agents] = await Promise.all([
    caller.approvals.find({ status: "pending", limit: APPROVALS_PAGE_SIZE }),
    caller.agents.find({ limit: 200 }),
  ]);

  return (
    <div className="page">
      <PageHeader
        title="Approvals"
        lead="What your agents asked for, and the changes they proposed that need your consent. Nothing runs until you approve it."
      />
      <ApprovalsView initialPage={firstPage} agents={agents} />
    </div>
  );
}
