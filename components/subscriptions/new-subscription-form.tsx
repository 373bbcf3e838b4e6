"use client";
// "New subscription": name, scope, cost per interval in major units (converted exactly to
// minor units with lib/money.ts), currency, interval and next charge day.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { localToday } from "@/lib/days";
import { useTRPC } from "@/lib/trpc/client";
import type { TSubscription } from "@/server/subscriptions/subscription.schema";
import { MoneyFields, ScopeField, useMoneyInput } from "../ledger/money-fields";
import { scopeInput, type TScopes } from "../events/scopes";
import { useCurrencyOfScope, useScopeChoice } from "../events/use-scope-choice";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field, TextField } from "../ui/field";

const FIELDS = ["name", "business_id", "amount_minor", "currency", "billing_interval", "next_charge_on"] as const;
const INTERVALS = ["week", "month", "quarter", "year"] as const;

export function NewSubscriptionForm(props: {
  scopes: TScopes;
  defaultCurrency: string;
  onCreated?: (subscription: TSubscription) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const [name, setName] = useState("");
  const { scope, setScope, missing, remember } = useScopeChoice(props.scopes);
  const money = useMoneyInput(props.defaultCurrency);
  const edited = useCurrencyOfScope(props.scopes, scope, props.defaultCurrency, money, form.edited);
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>("month");
  const [nextCharge, setNextCharge] = useState(localToday);

  const create = useMutation(
    trpc.subscriptions.create.mutationOptions({
      onSuccess: async ({ data }) => {
        remember(scope);
        form.succeeded(data.name);
        setName("");
        money.setAmount("");
        await queryClient.invalidateQueries({ queryKey: trpc.subscriptions.find.pathKey() });
        props.onCreated?.(data);
      },
      onError: (error) => {
        form.failed(error);
      },
    }),
  );

  function onSubmit() {
    const amount = money.parse();
    const clean = form.checked({
      name: name.trim() ? null : "Enter a name.",
      business_id: missing ? "Choose where this belongs: a business, a project or Personal." : null,
      amount_minor: amount.ok ? null : amount.message,
      next_charge_on: nextCharge ? null : "Enter the next charge date.",
    });
    if (!clean || !amount.ok) return;
    create.mutate({
      ...scopeInput(scope),
      name,
      amount_minor: amount.minor,
      currency: money.currency,
      billing_interval: interval,
      next_charge_on: nextCharge,
    });
  }

  const { errors } = form;

  return (
    <CreateForm
      state={form}
      labelledBy="new-subscription-heading"
      pending={create.isPending}
      submitLabel="Create subscription"
      onSubmit={onSubmit}
    >
      <div className="form-grid">
        <TextField
          label="Name"
          error={errors.fields.name}
          maxLength={200}
          placeholder="e.g. Design tool"
          value={name}
          onChange={setName}
          onEdited={() => form.edited("name")}
        />
        <ScopeField scopes={props.scopes} value={scope} onChange={setScope} error={errors.fields.business_id} edited={edited} />
        <MoneyFields money={money} errors={errors.fields} edited={edited} />
        <Field label="Interval" error={errors.fields.billing_interval}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={interval}
              onChange={(event) => {
                setInterval(event.target.value as (typeof INTERVALS)[number]);
                form.edited("billing_interval");
              }}
            >
              {INTERVALS.map((value) => (
                <option key={value} value={value}>
                  every {value}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Next charge" error={errors.fields.next_charge_on}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={nextCharge}
              onChange={(event) => {
                setNextCharge(event.target.value);
                form.edited("next_charge_on");
              }}
            />
          )}
        </Field>
      </div>
    </CreateForm>
  );
}
