"use client";
// The owner's agents, newest first, and the "New agent" form. Creating one shows its token
// once, in a dialog.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { formatMinor } from "@/lib/money";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TAgent } from "@/server/agents/agent.schema";
import { ListCard } from "../panel/list-card";
import { AGENTS_PAGE_SIZE } from "../panel/page-size";
import { usePreferences } from "../panel/preferences";
import { useCursorList, type TListPage } from "../panel/use-cursor-list";
import { CardSection } from "../ui/card";
import { createdColumn, DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { BotIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";
import { MonthEconomicsCell, useMonthEconomics } from "./agent-economics";
import { AgentForm } from "./agent-form";
import { levelLabel, resourceLabel, SCOPE_LABELS, type TGrantRecord, type TResourceOption } from "./grants";
import { TokenDialog, type TShownToken } from "./token-dialog";

export function AgentsView(props: {
  initialPage: TListPage<TAgent>;
  resources: TResourceOption[];
  defaultCurrency: string;
  /** The business the page was opened from (?business=), for a new grant's resource. */
  businessInView?: string | null;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<TShownToken | null>(null);
  const [formKey, setFormKey] = useState(0);
  const economics = useMonthEconomics();
  const input = { limit: AGENTS_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.agents.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.agents.find.query({ ...input, cursor }, { signal }),
    initialPage: props.initialPage,
  });

  const create = useMutation(
    trpc.agents.create.mutationOptions({
      onSuccess: async ({ data }) => {
        setShown({ agentId: data.id, agentName: data.name, token: data.token, rotated: false });
        setFormKey((key) => key + 1);
        await queryClient.invalidateQueries({ queryKey: trpc.agents.find.pathKey() });
      },
    }),
  );

  return (
    <div className="stack">
      <ListCard
        headingId="agents-heading"
        title="All agents"
        noun={["agent", "agents"]}
        list={list}
        empty={
          <EmptyState icon={<BotIcon />} title="No agents yet">
            An agent is an AI or a script that uses the API with its own token. Create one below and give it only the grants it
            needs.
          </EmptyState>
        }
      >
        <DataTable
          scroll
          stack
          items={list.items}
          columns={[
            {
              header: "Name",
              cellClassName: "cell-name",
              cell: (agent) => (
                <>
                  <Link href={`/agents/${agent.id}`}>{agent.name}</Link>
                  {agent.created_via === "oauth" ? (
                    <>
                      {" "}
                      <span className="badge" title="Connected by an assistant through OAuth" data-testid="agent-oauth-badge">
                        OAuth
                      </span>
                    </>
                  ) : null}
                </>
              ),
            },
            { header: "Status", cell: (agent) => <StatusPill status={agent.status} /> },
            { header: "Grants", cell: (agent) => <GrantSummary grants={agent.grants} resources={props.resources} /> },
            { header: "This month", cell: (agent) => <MonthEconomicsCell agentId={agent.id} {...economics} /> },
            {
              header: "Token",
              cellClassName: "mono muted",
              cell: (agent) => (agent.status === "revoked" ? "—" : (agent.token_hint ?? "—")),
            },
            createdColumn(),
          ]}
        />
      </ListCard>

      <CardSection
        headingId="new-agent-heading"
        title="New agent"
        description="It gets its own token, shown once. Start with “recommend”: you approve each action in Approvals."
      >
        <div className="card-body">
          <AgentForm
            key={formKey}
            labelledBy="new-agent-heading"
            initial={{ name: "", grants: [], allowed_ip_ranges: [] }}
            resources={props.resources}
            defaultCurrency={props.defaultCurrency}
            businessInView={props.businessInView}
            submitLabel="Create agent"
            pendingLabel="Creating…"
            onSubmit={(values) => create.mutateAsync(values)}
          />
        </div>
      </CardSection>

      <TokenDialog shown={shown} onClose={() => setShown(null)} showAgentLink />
    </div>
  );
}

/** The grants of an agent, one short line each. */
export function GrantSummary({ grants, resources }: { grants: TGrantRecord[]; resources: TResourceOption[] }) {
  const { locale } = usePreferences();
  if (grants.length === 0) return <span className="muted">No grants</span>;
  return (
    <ul className="grant-summary">
      {grants.map((grant, index) => {
        const limits = [
          grant.daily_limit_minor !== null && grant.currency
            ? `${formatMinor(grant.daily_limit_minor, grant.currency, locale)}/day`
            : null,
          grant.monthly_limit_minor !== null && grant.currency
            ? `${formatMinor(grant.monthly_limit_minor, grant.currency, locale)}/month`
            : null,
        ].filter(Boolean);
        return (
          <li key={index}>
            <strong>{SCOPE_LABELS[grant.scope as keyof typeof SCOPE_LABELS] ?? grant.scope}</strong>
            <span className="muted">
              {" "}
              · {levelLabel(grant.level)} · {resourceLabel(grant.resource, resources)}
            </span>
            {limits.length > 0 ? <span className="muted"> · {limits.join(", ")}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
