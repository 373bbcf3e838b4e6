"use client";
// The owner's agents, newest first, and the "New agent" form. Creating one shows its token
// once, in a dialog.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { formatMinor } from "@/lib/money";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TAgent } from "@/server/agents/agent.schema";
import { AGENTS_PAGE_SIZE } from "../panel/page-size";
import { DateTime, usePreferences } from "../panel/preferences";
import { useCursorList, type TListPage } from "../panel/use-cursor-list";
import { EmptyState } from "../ui/empty-state";
import { BotIcon } from "../ui/icons";
import { LoadMore } from "../ui/load-more";
import { StatusPill } from "../ui/status-pill";
import { AgentForm } from "./agent-form";
import { levelLabel, resourceLabel, SCOPE_LABELS, type TGrantRecord, type TResourceOption } from "./grants";
import { TokenDialog, type TShownToken } from "./token-dialog";

export function AgentsView(props: { initialPage: TListPage<TAgent>; resources: TResourceOption[]; defaultCurrency: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<TShownToken | null>(null);
  const [formKey, setFormKey] = useState(0);
  const input = { limit: AGENTS_PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.agents.find.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.agents.find.query({ ...input, cursor }, { signal }),
    initialPage: props.initialPage,
  });
  const agents = list.items;

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
      <section className="card" aria-labelledby="agents-heading">
        <div className="card-header">
          <h2 id="agents-heading">All agents</h2>
          {agents.length > 0 ? (
            <span className="count">
              {agents.length}
              {list.hasNextPage ? "+" : ""} {agents.length === 1 ? "agent" : "agents"}
            </span>
          ) : null}
        </div>
        {agents.length === 0 ? (
          <EmptyState icon={<BotIcon />} title="No agents yet">
            An agent is an AI or a script that uses the API with its own token. Create one below and give it only the grants it
            needs.
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Grants</th>
                  <th scope="col">Token</th>
                  <th scope="col" className="cell-right">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody>
                {agents.map((agent) => (
                  <tr key={agent.id}>
                    <td className="cell-name">
                      <Link href={`/agents/${agent.id}`}>{agent.name}</Link>
                    </td>
                    <td>
                      <StatusPill status={agent.status} />
                    </td>
                    <td>
                      <GrantSummary grants={agent.grants} resources={props.resources} />
                    </td>
                    <td className="mono muted">{agent.status === "revoked" ? "—" : (agent.token_hint ?? "—")}</td>
                    <td className="cell-date cell-right">
                      <DateTime iso={agent.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <LoadMore
          hasNextPage={list.hasNextPage}
          isFetchingNextPage={list.isFetchingNextPage}
          isError={list.isFetchNextPageError}
          onLoadMore={() => void list.fetchNextPage()}
        />
      </section>

      <section className="card" aria-labelledby="new-agent-heading">
        <div className="card-header">
          <div>
            <h2 id="new-agent-heading">New agent</h2>
            <p>It gets its own token, shown once. Start with “recommend”: you approve each action in Approvals.</p>
          </div>
        </div>
        <div className="card-body">
          <AgentForm
            key={formKey}
            labelledBy="new-agent-heading"
            initial={{ name: "", grants: [], allowed_ip_ranges: [] }}
            resources={props.resources}
            defaultCurrency={props.defaultCurrency}
            submitLabel="Create agent"
            pendingLabel="Creating…"
            onSubmit={(values) => create.mutateAsync(values)}
          />
        </div>
      </section>

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
