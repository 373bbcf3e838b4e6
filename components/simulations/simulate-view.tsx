"use client";
// A business's "What if" tab: changes to try (cancel one of its subscriptions, raise or lower an
// ad budget, add a cost or revenue), a horizon of 30 or 90 days, and Run, which asks POST
// /v1/simulations for the business's forecast before and after. Nothing is saved. Every problem
// of every change shows at once, beside its control; the answer is a before-and-after table and
// both balance lines on a chart (with a table of every day).
import { useMutation } from "@tanstack/react-query";
import { useMemo, useState, type FormEvent, type ReactNode } from "react";
import { formatMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorByPath, type TFormError } from "@/lib/trpc/errors";
import type { TSimulation } from "@/server/simulations/simulation.schema";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { formatCalendarDay } from "../overview/figures";
import { usePreferences } from "../panel/preferences";
import { CardSection } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { Field, FieldError, FormAlert, SubmitButton } from "../ui/field";
import { PlusIcon, TrashIcon } from "../ui/icons";
import { Segmented } from "../ui/segmented";
import { useHydrated } from "../ui/use-hydrated";
import {
  amountField,
  CHANGE_KINDS,
  changeField,
  changesFromDrafts,
  dayField,
  newDraft,
  REPEAT_OPTIONS,
  simulationFieldOf,
  type TChangeDraft,
  type TChangeKind,
} from "./changes";
import { SimulationChart } from "./simulation-chart";
import { BASELINE_LABEL, comparisonRows, SIMULATED_LABEL } from "./simulation-words";

export type TSimSubscription = {
  id: string;
  name: string;
  amount_minor: number | null;
  currency: string;
  billing_interval: string;
};
export type TSimAdAccount = { id: string; name: string; provider: string };

const HORIZONS = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
] as const;
type THorizon = (typeof HORIZONS)[number]["value"];

const NO_ERRORS: TFormError = { fields: {}, summary: null };
const INTERVAL_WORDS: Record<string, string> = { week: "week", month: "month", quarter: "quarter", year: "year" };
const PROVIDER_WORDS: Record<string, string> = { social_ads: "Social ads", search_ads: "Search ads" };

export function SimulateView(props: {
  businessId: string;
  today: string;
  defaultCurrency: string;
  subscriptions: readonly TSimSubscription[];
  adAccounts: readonly TSimAdAccount[];
}) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const { locale } = usePreferences();
  const [drafts, setDrafts] = useState<TChangeDraft[]>([]);
  const [horizon, setHorizon] = useState<THorizon>("30");
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [result, setResult] = useState<TSimulation | null>(null);
  const run = useMutation(trpc.simulations.run.mutationOptions());

  const currencies = useMemo(
    () => [...new Set([props.defaultCurrency, ...COMMON_CURRENCIES.map((currency) => currency.code)])],
    [props.defaultCurrency],
  );

  function clear(...fields: string[]) {
    if (!fields.some((field) => errors.fields[field])) return;
    setErrors((current) => ({
      ...current,
      fields: Object.fromEntries(Object.entries(current.fields).filter(([key]) => !fields.includes(key))),
    }));
  }

  function add(kind: TChangeKind) {
    setDrafts((current) => [
      ...current,
      newDraft(kind, {
        currency: props.defaultCurrency,
        today: props.today,
        subscriptionId: props.subscriptions.length === 1 ? props.subscriptions[0]!.id : undefined,
        integrationId: props.adAccounts.length === 1 ? props.adAccounts[0]!.id : undefined,
      }),
    ]);
  }

  function update(index: number, patch: Partial<TChangeDraft>, field: string) {
    setDrafts((current) => current.map((draft, i) => (i === index ? { ...draft, ...patch } : draft)));
    clear(changeField(index, field), `changes.${index}`);
  }

  function remove(index: number) {
    setDrafts((current) => current.filter((_, i) => i !== index));
    // Row numbers shift: the changes' errors no longer point at the right row.
    setErrors((current) => ({
      ...current,
      fields: Object.fromEntries(Object.entries(current.fields).filter(([key]) => !key.startsWith("changes."))),
    }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { changes, errors: found } = changesFromDrafts(drafts);
    // Everything the form can tell by itself, all at once (never only the first problem).
    if (Object.keys(found).length > 0) {
      setErrors({ fields: found, summary: null });
      focusFirstError(form);
      return;
    }
    try {
      const answer = await run.mutateAsync({ business_id: props.businessId, horizon: Number(horizon), changes });
      setErrors(NO_ERRORS);
      setResult(answer.data);
    } catch (error) {
      setErrors(formErrorByPath(error, simulationFieldOf));
      focusFirstError(form);
    }
  }

  const subscriptionLabel = (subscription: TSimSubscription) =>
    `${subscription.name} · ${formatMinor(subscription.amount_minor, subscription.currency, locale)} a ${
      INTERVAL_WORDS[subscription.billing_interval] ?? subscription.billing_interval
    }`;

  return (
    <>
      <CardSection
        headingId="what-if-heading"
        title="What if…"
        description="Try changes to this business's plans and compare its forecast before and after. Nothing is saved."
      >
        <form className="form card-body" onSubmit={onSubmit} noValidate aria-labelledby="what-if-heading">
          <FormAlert message={errors.summary} />
          <div className="field">
            <span className="label" id="what-if-changes">
              Changes
            </span>
            {drafts.length === 0 ? (
              <EmptyState icon={<PlusIcon />} title="No changes yet">
                A simulation runs this business&apos;s forecast twice: as your books stand, and with the changes you add — a
                cancelled subscription, a different ad budget, a new cost or revenue. Add a change, then Run. Nothing is saved.
              </EmptyState>
            ) : (
              <ol className="change-list" aria-labelledby="what-if-changes">
                {drafts.map((draft, index) => (
                  <li key={draft.key}>
                    <ChangeRow
                      index={index}
                      draft={draft}
                      today={props.today}
                      errors={errors.fields}
                      currencies={currencies}
                      subscriptions={props.subscriptions.map((s) => ({ value: s.id, label: subscriptionLabel(s) }))}
                      adAccounts={props.adAccounts.map((a) => ({ value: a.id, label: adAccountLabel(a) }))}
                      onChange={(patch, field) => update(index, patch, field)}
                      onRemove={() => remove(index)}
                    />
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div className="change-add" role="group" aria-label="Add a change">
            {(Object.keys(CHANGE_KINDS) as TChangeKind[]).map((kind) =>
              (kind === "cancel_subscription" && props.subscriptions.length === 0) ||
              (kind === "ad_budget_change" && props.adAccounts.length === 0) ? null : (
                <button key={kind} type="button" className="button button-secondary" onClick={() => add(kind)}>
                  <PlusIcon />
                  {CHANGE_KINDS[kind].label}
                </button>
              ),
            )}
          </div>
          {props.subscriptions.length === 0 || props.adAccounts.length === 0 ? (
            <p className="hint">
              {props.subscriptions.length === 0 ? "This business has no active subscriptions to cancel. " : ""}
              {props.adAccounts.length === 0 ? "Connect an ad account on Integrations to try a different ad budget." : ""}
            </p>
          ) : null}
          <div className="field change-horizon">
            <span className="label" id="what-if-horizon">
              Horizon
            </span>
            <Segmented
              label="Horizon"
              value={horizon}
              options={HORIZONS}
              onChange={(value) => {
                setHorizon(value);
                clear("horizon");
              }}
            />
            <FieldError message={errors.fields.horizon} />
          </div>
          <div className="form-actions">
            <SubmitButton pending={run.isPending} disabled={!hydrated} pendingLabel="Running…">
              Run
            </SubmitButton>
          </div>
        </form>
      </CardSection>
      {result ? <SimulationResult result={result} /> : null}
    </>
  );
}

/** An ad account by its name, with its kind unless the name says it already. */
function adAccountLabel(account: TSimAdAccount): string {
  const kind = PROVIDER_WORDS[account.provider] ?? account.provider;
  return account.name === kind ? account.name : `${account.name} (${kind})`;
}

/** Once the errors are on screen, the first field in error takes the focus. */
function focusFirstError(form: HTMLFormElement) {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

type TOption = { value: string; label: string };

function ChangeRow(props: {
  index: number;
  draft: TChangeDraft;
  today: string;
  errors: Record<string, string>;
  currencies: readonly string[];
  subscriptions: readonly TOption[];
  adAccounts: readonly TOption[];
  onChange: (patch: Partial<TChangeDraft>, field: string) => void;
  onRemove: () => void;
}) {
  const { index, draft, errors } = props;
  const error = (field: string) => errors[changeField(index, field)] ?? null;
  const number = index + 1;
  const kind = draft.kind;
  const amountLabel = kind === "ad_budget_change" ? "Per day" : "Amount";
  const dayLabel =
    kind === "cancel_subscription" || kind === "ad_budget_change" ? "From" : draft.repeat === "once" ? "On" : "First on";

  const amount = (
    <Field label={amountLabel} error={error(amountField(kind))}>
      {(control) => (
        <input
          {...control}
          className="input mono input-amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={draft.amount}
          onChange={(event) => props.onChange({ amount: event.target.value }, amountField(kind))}
        />
      )}
    </Field>
  );
  const currency = (
    <ChoiceField
      label="Currency"
      error={error("currency")}
      value={draft.currency}
      options={props.currencies.map((code) => ({ value: code, label: code }))}
      onChange={(value) => props.onChange({ currency: value }, "currency")}
    />
  );
  const day = (
    <Field label={dayLabel} error={error(dayField(kind))}>
      {(control) => (
        <input
          {...control}
          className="input"
          type="date"
          min={props.today}
          value={draft.day}
          onChange={(event) => props.onChange({ day: event.target.value }, dayField(kind))}
        />
      )}
    </Field>
  );

  let fields: ReactNode;
  if (kind === "cancel_subscription") {
    fields = (
      <div className="change-grid">
        <ChoiceField
          label="Subscription"
          error={error("subscription_id")}
          value={draft.subscriptionId}
          placeholder="Choose a subscription"
          options={props.subscriptions}
          onChange={(value) => props.onChange({ subscriptionId: value }, "subscription_id")}
        />
        {day}
      </div>
    );
  } else if (kind === "ad_budget_change") {
    fields = (
      <div className="change-grid">
        <ChoiceField
          label="Ad account"
          error={error("integration_id")}
          value={draft.integrationId}
          placeholder="Choose an ad account"
          options={props.adAccounts}
          onChange={(value) => props.onChange({ integrationId: value }, "integration_id")}
        />
        <ChoiceField
          label="Raise or lower"
          error={null}
          value={draft.direction}
          options={[
            { value: "raise", label: "Raise" },
            { value: "lower", label: "Lower" },
          ]}
          onChange={(value) => props.onChange({ direction: value as TChangeDraft["direction"] }, amountField(kind))}
        />
        {amount}
        {currency}
        {day}
      </div>
    );
  } else {
    fields = (
      <div className="change-grid">
        {amount}
        {currency}
        {day}
        <ChoiceField
          label="Repeats"
          error={error("billing_interval")}
          value={draft.repeat}
          options={REPEAT_OPTIONS}
          onChange={(value) => props.onChange({ repeat: value as TChangeDraft["repeat"] }, "billing_interval")}
        />
      </div>
    );
  }

  return (
    <fieldset className="change-row">
      <legend className="change-legend">
        {number}. {CHANGE_KINDS[kind].legend}
      </legend>
      <button type="button" className="button button-ghost change-remove" onClick={props.onRemove}>
        <TrashIcon />
        Remove<span className="visually-hidden"> change {number}</span>
      </button>
      <FieldError message={errors[`changes.${index}`]} />
      {fields}
    </fieldset>
  );
}

function ChoiceField(props: {
  label: string;
  error: string | null;
  value: string;
  placeholder?: string;
  options: readonly TOption[];
  onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(control) => (
        <select {...control} className="select" value={props.value} onChange={(event) => props.onChange(event.target.value)}>
          {props.placeholder ? (
            <option value="" disabled>
              {props.placeholder}
            </option>
          ) : null}
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function SimulationResult({ result }: { result: TSimulation }) {
  const { locale } = usePreferences();
  const rows = comparisonRows(result.baseline, result.simulated, result.currency, locale);
  const period = `${formatCalendarDay(result.from, locale)} to ${formatCalendarDay(result.to, locale)}`;
  const hasCash = result.baseline.ending_balance_committed_minor !== null;
  const ending = rows[0]!;
  return (
    <CardSection
      headingId="what-if-result-heading"
      title="Before and after"
      description={`From ${period} (${result.horizon_days} days), in ${result.currency}. Balances count cash less what is reserved and committed.`}
    >
      <div className="card-body stack">
        <p className="visually-hidden" role="status">
          {hasCash
            ? `Simulated. Ending balance ${ending.baseline} as things stand, ${ending.simulated} with your changes.`
            : "Simulated. No cash balance is recorded, so only the commitments are compared."}
        </p>
        {hasCash ? null : (
          <p className="notice">
            No cash balance is recorded for this business, so there are no balances to compare. Record one on its Overview; the
            commitments below still show what the changes move.
          </p>
        )}
        <div className="table-scroll" role="region" aria-label="Before and after, figures" tabIndex={0}>
          <table className="table table-stack" data-testid="simulation-comparison">
            <caption className="visually-hidden">Before and after, {period}</caption>
            <thead>
              <tr>
                <th scope="col">Figure</th>
                <th scope="col" className="cell-right">
                  {BASELINE_LABEL}
                </th>
                <th scope="col" className="cell-right">
                  {SIMULATED_LABEL}
                </th>
                <th scope="col" className="cell-right">
                  Difference
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid={`simulation-row-${row.id}`}>
                  <th scope="row">{row.label}</th>
                  <td className="cell-right mono" data-label={BASELINE_LABEL}>
                    {row.baseline}
                  </td>
                  <td className="cell-right mono" data-label={SIMULATED_LABEL}>
                    {row.simulated}
                  </td>
                  <td className="cell-right mono" data-label="Difference">
                    {row.difference}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {hasCash ? (
          <SimulationChart days={result.days} currency={result.currency} caption={`Committed balance, ${period}`} />
        ) : null}
      </div>
    </CardSection>
  );
}
