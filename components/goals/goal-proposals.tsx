"use client";
// "Suggest goals": for one scope, the goals its books suggest (POST /v1/goal-proposals),
// computed now and stored nowhere; "Add" sets one as it is proposed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC } from "@/lib/trpc/client";
import type { TGoalProposal } from "@/server/goals/goal.schema";
import { scopeInput, scopeName, type TScopes } from "../events/scopes";
import { usePreferences } from "../panel/preferences";
import { ActionButton } from "../ui/action-button";
import { CardSection } from "../ui/card";
import { Field, FormAlert } from "../ui/field";
import { PlusIcon } from "../ui/icons";
import { kindLabel, targetText } from "./goal-words";

type TAsked = { scope: string; proposals: TGoalProposal[] };

export function GoalProposals(props: { scopes: TScopes }) {
  const trpc = useTRPC();
  const [scope, setScope] = useState("personal");
  const [asked, setAsked] = useState<TAsked | null>(null);
  const [error, setError] = useState<string | null>(null);
  const propose = useMutation(
    trpc.goals.propose.mutationOptions({
      onSuccess: ({ data }, input) => {
        setError(null);
        setAsked({ scope: scopeKeyOf(input), proposals: data.proposals });
      },
      onError: (cause) => {
        setAsked(null);
        setError(formErrorOf(cause, []).summary);
      },
    }),
  );
  const scopeLabel = asked ? scopeName(props.scopes, recordScopeOf(props.scopes, asked.scope)) : "";

  return (
    <CardSection
      headingId="goal-proposals-heading"
      title="Suggest goals"
      description="Goals your books suggest for a scope, from its last 30 days: nothing is set until you add one."
    >
      <div className="card-body stack" style={{ gap: 14 }}>
        <form
          className="inline-form goal-suggest-form"
          aria-label="Suggest goals for a scope"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            propose.mutate(scopeInput(scope));
          }}
        >
          <Field label="Scope to suggest for">
            {(control) => (
              <select {...control} className="select" value={scope} onChange={(event) => setScope(event.target.value)}>
                {props.scopes.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" className="button button-secondary" disabled={propose.isPending}>
            {propose.isPending ? <span className="spinner" aria-hidden="true" /> : null}
            Suggest goals
          </button>
        </form>
        <FormAlert message={error} />
        {asked ? (
          asked.proposals.length === 0 ? (
            <p className="muted" role="status" style={{ margin: 0 }}>
              Nothing to suggest for {scopeLabel} yet: suggestions come from its cash balance and its last 30 to 90 days of
              revenue and spending. Record some, or set a goal by hand below.
            </p>
          ) : (
            <>
              <p className="visually-hidden" role="status">
                {asked.proposals.length} {asked.proposals.length === 1 ? "suggestion" : "suggestions"} for {scopeLabel}.
              </p>
              <ul className="goal-list goal-proposal-list" aria-label={`Suggestions for ${scopeLabel}`}>
                {asked.proposals.map((proposal) => (
                  <li key={`${asked.scope}:${proposal.kind}`}>
                    <ProposalItem proposal={proposal} scope={asked.scope} />
                  </li>
                ))}
              </ul>
            </>
          )
        ) : null}
      </div>
    </CardSection>
  );
}

function ProposalItem(props: { proposal: TGoalProposal; scope: string }) {
  const { proposal } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { locale } = usePreferences();
  const titleId = useId();
  const [error, setError] = useState<string | null>(null);
  const add = useMutation(
    trpc.goals.create.mutationOptions({
      onSuccess: async () => {
        setError(null);
        await queryClient.invalidateQueries({ queryKey: trpc.goals.all.pathKey() });
      },
      onError: (cause) => setError(formErrorOf(cause, []).summary),
    }),
  );
  const { rationale: _rationale, target_amount_minor, currency, target_days, ...fields } = proposal;
  return (
    <article className="goal" aria-labelledby={titleId}>
      <header className="goal-header">
        <div className="goal-title">
          <h3 id={titleId}>{proposal.name}</h3>
          <span className="pill pill-neutral">{kindLabel(proposal.kind)}</span>
        </div>
        {add.isSuccess ? (
          <span className="pill pill-success" role="status">
            Added
          </span>
        ) : (
          <ActionButton
            look="button-primary button-xs"
            pending={add.isPending}
            icon={<PlusIcon />}
            onClick={() =>
              add.mutate({
                ...scopeInput(props.scope),
                ...fields,
                ...(target_amount_minor !== null ? { target_amount_minor } : {}),
                ...(currency !== null ? { currency } : {}),
                ...(target_days !== null ? { target_days } : {}),
              })
            }
          >
            Add<span className="visually-hidden"> “{proposal.name}”</span>
          </ActionButton>
        )}
      </header>
      <p className="goal-rationale">{proposal.rationale}</p>
      <dl className="goal-facts">
        <div>
          <dt>Target</dt>
          <dd className="amount">{targetText(proposal, locale)}</dd>
        </div>
        <div>
          <dt>By</dt>
          <dd className="mono">{proposal.target_date}</dd>
        </div>
      </dl>
      <FormAlert message={error} />
    </article>
  );
}

function scopeKeyOf(input: { business_id?: string; project_id?: string; personal?: true }): string {
  if (input.business_id) return `b:${input.business_id}`;
  if (input.project_id) return `p:${input.project_id}`;
  return "personal";
}

/** A scope select's value as a record's scope fields (for scopeName): a project with its business. */
function recordScopeOf(scopes: TScopes, value: string) {
  const input = scopeInput(value);
  const businessId = input.project_id
    ? (scopes.projects.find((project) => project.id === input.project_id)?.business_id ?? null)
    : (input.business_id ?? null);
  return { business_id: businessId, project_id: input.project_id ?? null, personal: input.personal === true };
}
