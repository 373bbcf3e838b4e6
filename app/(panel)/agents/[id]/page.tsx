import { AgentDetail } from "@/components/agents/agent-detail";
import { BackLink } from "@/components/panel/page-header";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";
import { getOwnerMe } from "@/server/trpc/server-caller";
import { loadGrantResources } from "../grant-resources";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata((caller, id) => caller.agents.get({ id }), "Agent");

export default async function AgentPage(props: TDetailPageProps) {
  // Another owner's agent and a malformed id alike are the not-found page.
  const { caller, record: agent } = await loadDetail(props, (owner, id) => owner.agents.get({ id }));
  const [resources, me] = await Promise.all([loadGrantResources(caller), getOwnerMe()]);

  return (
    <div className="page">
      <BackLink href="/agents">Agents</BackLink>
      <AgentDetail agent={agent} resources={resources} defaultCurrency={me.base_currency} />
    </div>
  );
}
