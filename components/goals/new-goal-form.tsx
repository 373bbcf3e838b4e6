"use client";
// "Set a goal": its scope, kind and name, the target its kind needs (an amount and currency for
// save, revenue and spending cap; days for runway) and an optional date. Every error shows at
// once: a target the panel cannot read is still sent without it, so the server's answer names
// the other fields too (nothing is written while any field is wrong), and the panel's own
// message stands for that target. A date before the owner's today is sent as it is (the server
// refuses it), but the server only looks at it once the fields' shapes are right, so the panel
// names it itself in the same answer.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { majorToMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import type { TGoalKind } from "@/server/goals/goal.schema";
import { scopeInput, type TScopes } from "../events/scopes";
import { MoneyFields, ScopeField, useMoneyInput } from "../ledger/money-fields";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field, TextField } from "../ui/field";
import { isMoneyKind, KIND_OPTIONS } from "./goal-words";

const FIELDS = ["business_id", "kind", "name", "target_amount_minor", "currency", "target_days", "target_date"] as const;

/** Whole days as typed ("180"), or why not. */
function parseDays(text: string): { ok: true; days: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "Enter the days of runway to reach (1 to 3650)." };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: "Enter a whole number of days." };
  return { ok: true, days: Number(trimmed) };
}

export function NewGoalForm(props: { scopes: TScopes; defaultCurrency: string; today: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const [scope, setScope] = useState("personal");
  const [kind, setKind] = useState<TGoalKind>("save");
  const [name, setName] = useState("");
  const money = useMoneyInput(props.defaultCurrency);
  const [days, setDays] = useState("");
  const [daysError, setDaysError] = useState<string | null>(null);
  const [targetDate, setTargetDate] = useState("");
  const [dateError, setDateError] = useState<string | null>(null);

  const create = useMutation(
    trpc.goals.create.mutationOptions({
      onSuccess: async ({ data }) => {
        form.succeeded(`The goal “${data.name}”`);
        setName("");
        setDays("");
        setTargetDate("");
        money.setAmount("");
        await queryClient.invalidateQueries({ queryKey: trpc.goals.all.pathKey() });
      },
      onError: (error) => {
        form.failed(error);
      },
    }),
  );

  function onSubmit() {
    setDateError(targetDate && targetDate < props.today ? `Must not be before today (${props.today}).` : null);
    const moneyKind = isMoneyKind(kind);
    let target: { target_amount_minor?: number; currency?: string; target_days?: number };
    if (moneyKind) {
      const parsed = majorToMinor(money.amount, money.currency);
      money.setAmountError(parsed.ok ? null : money.amount.trim() === "" ? "Enter the target amount." : parsed.message);
      setDaysError(null);
      target = { ...(parsed.ok ? { target_amount_minor: parsed.minor } : {}), currency: money.currency };
    } else {
      const parsed = parseDays(days);
      setDaysError(parsed.ok ? null : parsed.message);
      money.setAmountError(null);
      target = parsed.ok ? { target_days: parsed.days } : {};
    }
    create.mutate({
      ...scopeInput(scope),
      kind,
      name,
      // Omitted when unreadable: the server refuses the request (writing nothing) and names
      // every other wrong field in the same answer.
      ...target,
      ...(targetDate ? { target_date: targetDate } : {}),
    });
  }

  const { errors } = form;
  // The shared scope and money fields name the amount `amount_minor`; a goal's is its target.
  const edited = (field: "amount_minor" | "currency" | "business_id") =>
    form.edited(field === "amount_minor" ? "target_amount_minor" : field);
  const kindHint = KIND_OPTIONS.find((option) => option.value === kind)?.hint;
  return (
    <CreateForm state={form} labelledBy="new-goal-heading" pending={create.isPending} submitLabel="Set goal" onSubmit={onSubmit}>
      <div className="form-grid">
        <ScopeField scopes={props.scopes} value={scope} onChange={setScope} error={errors.fields.business_id} edited={edited} />
        <Field label="Kind" hint={kindHint} error={errors.fields.kind}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={kind}
              onChange={(event) => {
                setKind(event.target.value as TGoalKind);
                setDaysError(null);
                money.setAmountError(null);
                form.edited("kind");
              }}
            >
              {KIND_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label="Name"
          error={errors.fields.name}
          maxLength={200}
          placeholder="e.g. Three months of runway saved"
          value={name}
          onChange={setName}
          onEdited={() => form.edited("name")}
        />
        {isMoneyKind(kind) ? (
          <MoneyFields
            money={money}
            errors={{ amount_minor: errors.fields.target_amount_minor, currency: errors.fields.currency }}
            edited={edited}
          />
        ) : (
          <Field label="Days of runway" error={daysError ?? errors.fields.target_days} hint="1 to 3650 days.">
            {(control) => (
              <input
                {...control}
                className="input mono"
                inputMode="numeric"
                autoComplete="off"
                placeholder="180"
                value={days}
                onChange={(event) => {
                  setDays(event.target.value);
                  setDaysError(null);
                  form.edited("target_days");
                }}
              />
            )}
          </Field>
        )}
        <Field
          label="Target date (optional)"
          error={dateError ?? errors.fields.target_date}
          hint="When it should be reached; not in the past."
        >
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={targetDate}
              onChange={(event) => {
                setTargetDate(event.target.value);
                setDateError(null);
                form.edited("target_date");
              }}
            />
          )}
        </Field>
      </div>
    </CreateForm>
  );
}
