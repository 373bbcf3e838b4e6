import type { Metadata } from "next";
import { AgentsView } from "@/components/agents/agents-view";
import { AGENTS_PAGE_SIZE } from "@/components/panel/page-size";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";
import { loadGrantResources } from "./grant-resources";

export const metadata: Metadata = { title: "Agents" };
export const dynamic = "force-dynamic";

export default async function AgentsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const caller = await getOwnerCaller();
  const { business } = await searchParams;
  const [firstPage, resources, me] = await Promise.all([
    caller.agents.find({ limit: AGENTS_PAGE_SIZE }),
    loadGrantResources(caller),
    getOwnerMe(),
  ]);

  return (
    <div className="page">
      <PageHeader
        title="Agents"
        lead="The AI agents and scripts that act on your money through the API, each with its own token and grants."
      />
      <AgentsView
        initialPage={firstPage}
        resources={resources}
        defaultCurrency={me.base_currency}
        businessInView={typeof business === "string" ? business : null}
      />
    </div>
  );
}
