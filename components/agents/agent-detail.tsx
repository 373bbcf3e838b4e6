"use client";
// One agent: its token (rotate: the new one is shown once), its status (suspend, reactivate),
// its name, grants and allowed IP ranges (saving replaces the grants), its decisions with their
// outcomes, and revoking it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorOf } from "@/lib/trpc/errors";
import type { TAgent } from "@/server/agents/agent.schema";
import { PageHeader } from "../panel/page-header";
import { DateTime } from "../panel/preferences";
import { ActionButton } from "../ui/action-button";
import { CardHeader, CardSection } from "../ui/card";
import { FormAlert } from "../ui/field";
import { AlertIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";
import { AgentDecisions } from "./agent-decisions";
import { AgentEconomics } from "./agent-economics";
import { AgentForm } from "./agent-form";
import { AgentPassport } from "./agent-passport";
import type { TResourceOption } from "./grants";
import { TokenDialog, type TShownToken } from "./token-dialog";

export function AgentDetail(props: { agent: TAgent; resources: TResourceOption[]; defaultCurrency: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery({ ...trpc.agents.get.queryOptions({ id: props.agent.id }), initialData: { data: props.agent } });
  const agent = query.data.data;
  const revoked = agent.status === "revoked";
  const [shown, setShown] = useState<TShownToken | null>(null);
  const [confirming, setConfirming] = useState<"rotate" | "revoke" | null>(null);
  const [actionError, setActionError] = useState<{ card: "token" | "status" | "revoke"; message: string } | null>(null);
  // Bumped when the passport's suggested grants change the grants: the grants form starts again from them.
  const [grantsRevision, setGrantsRevision] = useState(0);

  async function store(next: TAgent) {
    queryClient.setQueryData(trpc.agents.get.queryKey({ id: next.id }), { data: next });
    await queryClient.invalidateQueries({ queryKey: trpc.agents.find.pathKey() });
  }
  const failed = (card: "token" | "status" | "revoke") => (error: unknown) =>
    setActionError({ card, message: formErrorOf(error, []).summary ?? "That did not work. Try again." });

  const update = useMutation(trpc.agents.update.mutationOptions({ onSuccess: ({ data }) => store(data) }));
  const setStatus = useMutation(
    trpc.agents.update.mutationOptions({
      onSuccess: async ({ data }) => {
        setActionError(null);
        await store(data);
      },
      onError: failed("status"),
    }),
  );
  const rotate = useMutation(
    trpc.agents.rotateToken.mutationOptions({
      onSuccess: async ({ data }) => {
        setConfirming(null);
        setActionError(null);
        const { token, ...rest } = data;
        setShown({ agentId: data.id, agentName: data.name, token, rotated: true });
        await store(rest);
      },
      onError: failed("token"),
    }),
  );
  const revoke = useMutation(
    trpc.agents.revoke.mutationOptions({
      onSuccess: async ({ data }) => {
        setConfirming(null);
        setActionError(null);
        await store(data);
      },
      onError: failed("revoke"),
    }),
  );

  const errorFor = (card: "token" | "status" | "revoke") => (actionError?.card === card ? actionError.message : null);

  return (
    <>
      <PageHeader
        title={agent.name}
        meta={
          <>
            <StatusPill status={agent.status} />
            <span>
              Created <DateTime iso={agent.created_at} />
            </span>
            <span className="mono" title="Agent ID">
              {agent.id}
            </span>
          </>
        }
      />
      <div className="stack">
        {revoked ? (
          <div className="banner banner-danger" role="status">
            <AlertIcon />
            <span>
              This agent was revoked
              {agent.revoked_at ? (
                <>
                  {" "}
                  on <DateTime iso={agent.revoked_at} withTime />
                </>
              ) : null}
              : its token no longer works and it cannot be changed. Create a new agent if you need one.
            </span>
          </div>
        ) : null}

        <div className="grid-2">
          <CardSection
            headingId="token-heading"
            title="Token"
            description="The agent's bearer for the API. Only its first characters are kept for you to recognise it."
          >
            <dl className="details">
              <dt>Connected</dt>
              <dd data-testid="agent-created-via">
                {agent.created_via === "oauth"
                  ? "By OAuth: an assistant holds an hour-long token it renews; revoking or suspending ends its access."
                  : "With a token"}
              </dd>
              <dt>Current token</dt>
              <dd className="mono">{revoked ? <span className="muted">None</span> : (agent.token_hint ?? "—")}</dd>
              <dt>Expires</dt>
              <dd>
                {agent.token_expires_at && !revoked ? (
                  <DateTime iso={agent.token_expires_at} withTime />
                ) : (
                  <span className="muted">—</span>
                )}
              </dd>
            </dl>
            <div className="card-body card-body-top">
              <FormAlert message={errorFor("token")} />
              {confirming === "rotate" ? (
                <Confirm
                  label="Confirm token rotation"
                  action={
                    <ActionButton
                      look="button-primary"
                      pending={rotate.isPending}
                      onClick={() => rotate.mutate({ id: agent.id })}
                    >
                      Rotate now
                    </ActionButton>
                  }
                  onCancel={() => setConfirming(null)}
                >
                  The current token stops working at once. The agent needs the new one to carry on.
                </Confirm>
              ) : (
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={revoked}
                  onClick={() => setConfirming("rotate")}
                >
                  Rotate token
                </button>
              )}
            </div>
          </CardSection>

          <section className="card" aria-labelledby="status-heading">
            <CardHeader
              headingId="status-heading"
              title="Status"
              description={
                revoked
                  ? "A revoked agent stays revoked."
                  : "A suspended agent's calls are refused (403 agent_suspended) until you reactivate it."
              }
            >
              <StatusPill status={agent.status} />
            </CardHeader>
            <div className="card-body">
              <FormAlert message={errorFor("status")} />
              {agent.status === "active" ? (
                <ActionButton
                  look="button-secondary"
                  pending={setStatus.isPending}
                  onClick={() => setStatus.mutate({ id: agent.id, status: "suspended" })}
                >
                  Suspend agent
                </ActionButton>
              ) : agent.status === "suspended" ? (
                <ActionButton
                  look="button-primary"
                  pending={setStatus.isPending}
                  onClick={() => setStatus.mutate({ id: agent.id, status: "active" })}
                >
                  Reactivate agent
                </ActionButton>
              ) : (
                <p className="muted">Revoked for good.</p>
              )}
            </div>
          </section>
        </div>

        <CardSection
          headingId="edit-heading"
          title="Name and grants"
          description={
            revoked
              ? "Read-only: the agent is revoked."
              : "Saving replaces all grants; what was spent today and this month still counts for a grant of the same scope, resource and currency."
          }
        >
          <div className="card-body">
            <AgentForm
              key={grantsRevision}
              labelledBy="edit-heading"
              initial={agent}
              resources={props.resources}
              defaultCurrency={props.defaultCurrency}
              submitLabel="Save changes"
              pendingLabel="Saving…"
              successMessage="Saved."
              disabled={revoked}
              onSubmit={(values) => update.mutateAsync({ id: agent.id, ...values })}
            />
          </div>
        </CardSection>

        <AgentPassport
          agent={agent}
          resources={props.resources}
          defaultCurrency={props.defaultCurrency}
          onGrantsChanged={() => setGrantsRevision((n) => n + 1)}
        />

        <AgentEconomics agentId={agent.id} />
        <AgentDecisions agentId={agent.id} />

        {revoked ? null : (
          <CardSection
            className="card-danger"
            headingId="revoke-heading"
            title="Revoke agent"
            description="For good: its token is refused from now on and it cannot be reactivated. Its history stays."
          >
            <div className="card-body">
              <FormAlert message={errorFor("revoke")} />
              {confirming === "revoke" ? (
                <Confirm
                  label="Confirm revocation"
                  action={
                    <ActionButton look="button-danger" pending={revoke.isPending} onClick={() => revoke.mutate({ id: agent.id })}>
                      Yes, revoke it
                    </ActionButton>
                  }
                  onCancel={() => setConfirming(null)}
                >
                  Revoke <strong>{agent.name}</strong>? This cannot be undone.
                </Confirm>
              ) : (
                <button type="button" className="button button-danger-outline" onClick={() => setConfirming("revoke")}>
                  Revoke agent…
                </button>
              )}
            </div>
          </CardSection>
        )}

        <TokenDialog shown={shown} onClose={() => setShown(null)} />
      </div>
    </>
  );
}

/** "Are you sure?": what happens, the button that does it, and Cancel. */
function Confirm(props: { label: string; action: ReactNode; onCancel: () => void; children: ReactNode }) {
  return (
    <div className="confirm" role="group" aria-label={props.label}>
      <p>{props.children}</p>
      <div className="form-actions">
        {props.action}
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
