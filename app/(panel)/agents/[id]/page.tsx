import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AgentDetail } from "@/components/agents/agent-detail";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { toAppError } from "@/server/errors/to-app-error";
import { getOwnerCaller, getOwnerMe, type TServerCaller } from "@/server/trpc/server-caller";
import { loadGrantResources } from "../grant-resources";

export const dynamic = "force-dynamic";

type TProps = { params: Promise<{ id: string }> };

/** The agent, or the not-found page (another owner's agent and a malformed id alike). */
async function loadAgent(caller: TServerCaller, id: string) {
  try {
    return (await caller.agents.get({ id })).data;
  } catch (error) {
    const { code } = toAppError(error);
    if (code === "not_found" || code === "validation_error") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  const caller = await getOwnerCaller();
  const { id } = await params;
  const agent = await caller.agents.get({ id }).catch(() => null);
  return { title: agent?.data.name ?? "Agent" };
}

export default async function AgentPage({ params }: TProps) {
  const { id } = await params;
  const caller = await getOwnerCaller();
  const agent = await loadAgent(caller, id);
  const [resources, me] = await Promise.all([loadGrantResources(caller), getOwnerMe()]);

  return (
    <div className="page">
      <Link href="/agents" className="back-link">
        <ArrowLeftIcon />
        Agents
      </Link>
      <AgentDetail agent={agent} resources={resources} defaultCurrency={me.base_currency} />
    </div>
  );
}
