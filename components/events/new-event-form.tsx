"use client";
// "New event": an expense, a revenue or a planned expense. The amount is typed in major units
// and converted exactly to minor units (lib/money.ts, the currency's digits; never floats).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { majorToMinor } from "@/lib/money";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field } from "../ui/field";
import { Segmented } from "../ui/segmented";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { scopeInput, todayIso, type TScopes } from "./scopes";

const FIELDS = ["business_id", "amount_minor", "currency", "occurred_on", "category", "description"] as const;
type TKind = "expense" | "revenue" | "planned_expense";
const GRID = {
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))",
  gap: "4px 16px",
  alignItems: "start",
} as const;
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
  const [scope, setScope] = useState("personal");
  const [currency, setCurrency] = useState(defaultCurrency);
  const [amount, setAmount] = useState("");
  const [date, setDate] = useState(todayIso);
  const [category, setCategory] = useState("");
  const [description, setDescription] = useState("");
  const [amountError, setAmountError] = useState<string | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);

  const options = {
    onSuccess: async () => {
      form.succeeded(`The ${kind === "revenue" ? "revenue" : kind === "expense" ? "expense" : "planned expense"}`);
      setAmount("");
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
    const parsed = majorToMinor(amount, currency);
    if (!parsed.ok) {
      setAmountError(parsed.message);
      amountRef.current?.focus();
      return;
    }
    setAmountError(null);
    const input = {
      ...scopeInput(scope),
      amount_minor: parsed.minor,
      currency,
      occurred_on: date,
      ...(category.trim() ? { category: category.trim() } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
    };
    if (kind === "expense") expense.mutate(input);
    else if (kind === "revenue") revenue.mutate(input);
    else planned.mutate(input);
  }

  const { errors } = form;
  const currencies = COMMON_CURRENCIES.some((c) => c.code === defaultCurrency)
    ? COMMON_CURRENCIES
    : [{ code: defaultCurrency, name: defaultCurrency }, ...COMMON_CURRENCIES];

  return (
    <CreateForm
      state={form}
      labelledBy="new-event-heading"
      pending={pending}
      submitLabel={kind === "revenue" ? "Add revenue" : kind === "expense" ? "Add expense" : "Add planned expense"}
      onSubmit={onSubmit}
    >
      <Segmented label="Event type" value={kind} options={KINDS} onChange={setKind} />
      <div style={GRID}>
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
              {scopes.options.map((option) => (
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
        <Field label="Category" error={errors.fields.category}>
          {(control) => (
            <input
              {...control}
              className="input"
              maxLength={100}
              placeholder="e.g. software"
              value={category}
              onChange={(event) => {
                setCategory(event.target.value);
                form.edited("category");
              }}
            />
          )}
        </Field>
        <div style={{ gridColumn: "span 2" }}>
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
