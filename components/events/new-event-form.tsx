"use client";
// "New event": an expense, a revenue or a planned expense. The amount is typed in major units
// and converted exactly to minor units (lib/money.ts, the currency's digits; never floats).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { localToday } from "@/lib/days";
import type { TEventType } from "@/lib/event-types";
import { useTRPC } from "@/lib/trpc/client";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field, TextField } from "../ui/field";
import { Segmented } from "../ui/segmented";
import { MoneyFields, ScopeField, useMoneyInput } from "../ledger/money-fields";
import { scopeInput, type TScopes } from "./scopes";
import { useCurrencyOfScope, useScopeChoice } from "./use-scope-choice";

const FIELDS = ["business_id", "amount_minor", "currency", "occurred_on", "category", "description"] as const;
/** The event types the owner enters here (lib/event-types.ts). */
type TKind = Extract<TEventType, "expense" | "revenue" | "planned_expense">;
const KINDS: { value: TKind; label: string }[] = [
  { value: "expense", label: "Expense" },
  { value: "revenue", label: "Revenue" },
  { value: "planned_expense", label: "Planned" },
];

export function NewEventForm({ scopes, defaultCurrency }: { scopes: TScopes; defaultCurrency: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const [kind, setKind] = useState<TKind>("expense");
  const { scope, setScope, missing, remember } = useScopeChoice(scopes);
  const money = useMoneyInput(defaultCurrency);
  const edited = useCurrencyOfScope(scopes, scope, defaultCurrency, money, form.edited);
  const [date, setDate] = useState(localToday);
  const [category, setCategory] = useState("");
  const [description, setDescription] = useState("");

  const options = {
    onSuccess: async () => {
      remember(scope);
      form.succeeded(`The ${kind === "revenue" ? "revenue" : kind === "expense" ? "expense" : "planned expense"}`);
      money.setAmount("");
      setDescription("");
      await queryClient.invalidateQueries({ queryKey: trpc.ledger.findEvents.pathKey() });
    },
    onError: (error: unknown) => {
      form.failed(error);
    },
  };
  const expense = useMutation(trpc.ledger.createExpense.mutationOptions(options));
  const revenue = useMutation(trpc.ledger.createRevenue.mutationOptions(options));
  const planned = useMutation(trpc.ledger.createPlannedExpense.mutationOptions(options));
  const pending = expense.isPending || revenue.isPending || planned.isPending;

  function onSubmit() {
    const amount = money.parse();
    const clean = form.checked({
      business_id: missing ? "Choose where this belongs: a business, a project or Personal." : null,
      amount_minor: amount.ok ? null : amount.message,
      occurred_on: date ? null : "Enter a date.",
    });
    if (!clean || !amount.ok) return;
    const input = {
      ...scopeInput(scope),
      amount_minor: amount.minor,
      currency: money.currency,
      occurred_on: date,
      ...(category.trim() ? { category: category.trim() } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
    };
    if (kind === "expense") expense.mutate(input);
    else if (kind === "revenue") revenue.mutate(input);
    else planned.mutate(input);
  }

  const { errors } = form;

  return (
    <CreateForm
      state={form}
      labelledBy="new-event-heading"
      pending={pending}
      submitLabel={kind === "revenue" ? "Add revenue" : kind === "expense" ? "Add expense" : "Add planned expense"}
      onSubmit={onSubmit}
    >
      <Segmented label="Event type" value={kind} options={KINDS} onChange={setKind} />
      <div className="form-grid">
        <ScopeField scopes={scopes} value={scope} onChange={setScope} error={errors.fields.business_id} edited={edited} />
        <MoneyFields money={money} errors={errors.fields} edited={edited} />
        <Field label={kind === "planned_expense" ? "Planned date" : "Date"} error={errors.fields.occurred_on}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={date}
              onChange={(event) => {
                setDate(event.target.value);
                form.edited("occurred_on");
              }}
            />
          )}
        </Field>
        <TextField
          label="Category"
          error={errors.fields.category}
          maxLength={100}
          placeholder="e.g. software"
          value={category}
          onChange={setCategory}
          onEdited={() => form.edited("category")}
        />
        <div className="form-grid-wide">
          <Field label="Description" error={errors.fields.description}>
            {(control) => (
              <input
                {...control}
                className="input"
                maxLength={1000}
                value={description}
                onChange={(event) => {
                  setDescription(event.target.value);
                  form.edited("description");
                }}
              />
            )}
          </Field>
        </div>
      </div>
    </CreateForm>
  );
}
