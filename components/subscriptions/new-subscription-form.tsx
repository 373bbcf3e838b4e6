"use client";
// "New subscription": name, scope, cost per interval in major units (converted exactly to
// minor units with lib/money.ts), currency, interval and next charge day.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { majorToMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import type { TSubscription } from "@/server/subscriptions/subscription.schema";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { scopeInput, todayIso, type TScopes } from "../events/scopes";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field } from "../ui/field";

const FIELDS = ["name", "business_id", "amount_minor", "currency", "billing_interval", "next_charge_on"] as const;
const GRID = {
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))",
  gap: "4px 16px",
  alignItems: "start",
} as const;
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
  const [scope, setScope] = useState("personal");
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState(props.defaultCurrency);
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>("month");
  const [nextCharge, setNextCharge] = useState(todayIso);
  const [amountError, setAmountError] = useState<string | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);

  const create = useMutation(
    trpc.subscriptions.create.mutationOptions({
      onSuccess: async ({ data }) => {
        form.succeeded(data.name);
        setName("");
        setAmount("");
        await queryClient.invalidateQueries({ queryKey: trpc.subscriptions.find.pathKey() });
        props.onCreated?.(data);
      },
      onError: (error) => {
        form.failed(error);
      },
    }),
  );

  function onSubmit() {
    const parsed = majorToMinor(amount, currency);
    if (!parsed.ok) {
      setAmountError(parsed.message);
      amountRef.current?.focus();
      return;
    }
    setAmountError(null);
    create.mutate({
      ...scopeInput(scope),
      name,
      amount_minor: parsed.minor,
      currency,
      billing_interval: interval,
      next_charge_on: nextCharge,
    });
  }

  const { errors } = form;
  const currencies = COMMON_CURRENCIES.some((c) => c.code === props.defaultCurrency)
    ? COMMON_CURRENCIES
    : [{ code: props.defaultCurrency, name: props.defaultCurrency }, ...COMMON_CURRENCIES];

  return (
    <CreateForm
      state={form}
      labelledBy="new-subscription-heading"
      pending={create.isPending}
      submitLabel="Create subscription"
      onSubmit={onSubmit}
    >
      <div style={GRID}>
        <Field label="Name" error={errors.fields.name}>
          {(control) => (
            <input
              {...control}
              className="input"
              maxLength={200}
              placeholder="e.g. Design tool"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                form.edited("name");
              }}
            />
          )}
        </Field>
        <Field label="Scope" error={errors.fields.business_id}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={scope}
              onChange={(event) => {
                setScope(event.target.value);
                form.edited("business_id");
              }}
            >
              {props.scopes.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr) 100px", gap: 10 }}>
          <Field label="Amount" error={amountError ?? errors.fields.amount_minor}>
            {(control) => (
              <input
                {...control}
                ref={amountRef}
                className="input mono input-amount"
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.00"
                value={amount}
                onChange={(event) => {
                  setAmount(event.target.value);
                  setAmountError(null);
                  form.edited("amount_minor");
                }}
              />
            )}
          </Field>
          <Field label="Currency" error={errors.fields.currency}>
            {(control) => (
              <select
                {...control}
                className="select"
                value={currency}
                onChange={(event) => {
                  setCurrency(event.target.value);
                  form.edited("currency");
                }}
              >
                {currencies.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.code}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
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
