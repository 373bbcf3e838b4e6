"use client";
// The Goals page: suggestions from the books, the "Set a goal" form, and every goal of the
// owner with its progress (measured now), target, date and status. GET /v1/goals answers an
// empty list by contract, so the list comes from the panel-only goals.all procedure.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { formErrorOf } from "@/lib/trpc/errors";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import type { TGoal, TGoalStatus } from "@/server/goals/goal.schema";
import { auditHref } from "../audit/audit-labels";
import { scopeName, useScopes, type TScopes } from "../events/scopes";
import { ListCard } from "../panel/list-card";
import { usePreferences } from "../panel/preferences";
import { useCursorList } from "../panel/use-cursor-list";
import { ActionButton } from "../ui/action-button";
import { CardSection } from "../ui/card";
import { Confirm } from "../ui/confirm";
import { EmptyState } from "../ui/empty-state";
import { FormAlert } from "../ui/field";
import { TargetIcon, TrashIcon } from "../ui/icons";
import { GoalProposals } from "./goal-proposals";
import { barValue, isOverCap, kindLabel, percentText, progressText, targetText } from "./goal-words";
import { NewGoalForm } from "./new-goal-form";

const PAGE_SIZE = 25;

const STATUS_PILLS: Record<TGoalStatus, string> = {
  active: "pill-accent",
  achieved: "pill-success",
  abandoned: "pill-neutral",
};

/** `today`: the owner's today (their timezone) when the page was rendered, for the form's own date check. */
export function GoalsView({ defaultCurrency, today }: { defaultCurrency: string; today: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scopes = useScopes();
  const [notice, setNotice] = useState<string | null>(null);
  const input = { limit: PAGE_SIZE };
  const list = useCursorList({
    queryKey: trpc.goals.all.infiniteQueryKey(input),
    fetchPage: (cursor, signal) => client.goals.all.query({ ...input, cursor }, { signal }),
  });

  return (
    <div className="stack">
      <GoalProposals scopes={scopes} />
      <CardSection
        headingId="new-goal-heading"
        title="Set a goal"
        description="A target for a business, a project or your own money: its progress is measured on your books every time you look."
      >
        <div className="card-body">
          <NewGoalForm scopes={scopes} defaultCurrency={defaultCurrency} today={today} />
        </div>
      </CardSection>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <ListCard
        headingId="goals-heading"
        title="Your goals"
        noun={["goal", "goals"]}
        list={list}
        empty={
          list.isError ? (
            <div className="card-body">
              <FormAlert message={formErrorOf(list.error, []).summary} />
            </div>
          ) : (
            <EmptyState icon={<TargetIcon />} title={list.isPending ? "Loading goals…" : "No goals yet"}>
              A goal is a target you want your books to reach: money to keep free, revenue to earn, a monthly spending cap, or
              days of runway. Press “Suggest goals” above to get some from your last 30 days, or set one yourself with the form.
            </EmptyState>
          )
        }
      >
        <ul className="goal-list">
          {list.items.map((goal) => (
            <li key={goal.id}>
              <GoalItem goal={goal} scopes={scopes} onDone={setNotice} />
            </li>
          ))}
        </ul>
      </ListCard>
    </div>
  );
}

function GoalItem(props: { goal: TGoal; scopes: TScopes; onDone: (message: string) => void }) {
  const { goal } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { locale } = usePreferences();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.goals.all.pathKey() });

  const update = useMutation(
    trpc.goals.update.mutationOptions({
      onSuccess: async ({ data }) => {
        setError(null);
        await refresh();
        props.onDone(data.status === "active" ? `“${data.name}” is active again.` : `“${data.name}” is marked ${data.status}.`);
      },
      onError: (cause) => setError(formErrorOf(cause, []).summary),
    }),
  );
  const remove = useMutation(
    trpc.goals.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        props.onDone(`“${goal.name}” was deleted.`);
      },
      onError: (cause) => setError(formErrorOf(cause, []).summary),
    }),
  );
  const move = (status: TGoalStatus) => {
    setError(null);
    update.mutate({ id: goal.id, status });
  };
  const ratio = goal.progress?.ratio ?? null;
  const over = isOverCap(goal);

  return (
    <article className="goal" aria-labelledby={titleId} data-status={goal.status}>
      <header className="goal-header">
        <div className="goal-title">
          <h3 id={titleId}>{goal.name}</h3>
          <span className="pill pill-neutral">{kindLabel(goal.kind)}</span>
          <span className={`pill ${STATUS_PILLS[goal.status]}`}>{goal.status}</span>
        </div>
        <span className="muted goal-scope">{scopeName(props.scopes, goal)}</span>
      </header>

      <div className="goal-progress">
        <progress
          className={over ? "progress progress-over" : "progress"}
          max={100}
          value={barValue(ratio)}
          aria-label={`Progress of ${goal.name}`}
          aria-valuetext={ratio === null ? "unknown" : percentText(ratio, locale)}
        />
        <span className="goal-percent amount">{ratio === null ? "—" : percentText(ratio, locale)}</span>
      </div>
      <p className="goal-progress-text">{progressText(goal, locale)}</p>

      <dl className="goal-facts">
        <div>
          <dt>Target</dt>
          <dd className="amount">{targetText(goal, locale)}</dd>
        </div>
        <div>
          <dt>By</dt>
          <dd className="mono">{goal.target_date ?? <span className="muted">No date</span>}</dd>
        </div>
        <div>
          <dt>Set</dt>
          <dd className="mono">{goal.created_at.slice(0, 10)}</dd>
        </div>
      </dl>

      <FormAlert message={error} />
      {confirming ? (
        <Confirm
          label={`Delete ${goal.name}`}
          action={
            <ActionButton look="button-danger" pending={remove.isPending} onClick={() => remove.mutate({ id: goal.id })}>
              Delete goal
            </ActionButton>
          }
          onCancel={() => setConfirming(false)}
        >
          <p style={{ margin: 0 }}>Delete “{goal.name}” for good? Its history stays in the audit log.</p>
        </Confirm>
      ) : (
        <div className="goal-actions">
          {goal.status === "active" ? (
            <>
              <ActionButton look="button-secondary button-xs" pending={update.isPending} onClick={() => move("achieved")}>
                Mark achieved
              </ActionButton>
              <ActionButton look="button-secondary button-xs" pending={update.isPending} onClick={() => move("abandoned")}>
                Abandon
              </ActionButton>
            </>
          ) : (
            <ActionButton look="button-secondary button-xs" pending={update.isPending} onClick={() => move("active")}>
              Reactivate
            </ActionButton>
          )}
          <button
            type="button"
            className="button button-ghost button-xs"
            aria-label={`Delete ${goal.name}…`}
            onClick={() => {
              setError(null);
              setConfirming(true);
            }}
          >
            <TrashIcon />
            Delete…
          </button>
          <Link
            className="goal-history"
            href={auditHref({ target_type: "goal", target_id: goal.id })}
            aria-label={`History of ${goal.name} in the audit log`}
          >
            History
          </Link>
        </div>
      )}
    </article>
  );
}
