"use client";
// "Record cash": a business's bank balance as of now, by account (POST /v1/cash-snapshots'
// procedure). Cash, runway and free capital start from it, so a new owner is sent here first.
// After a save the page's figures are loaded again from the server.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { MoneyFields, useMoneyInput } from "../ledger/money-fields";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field } from "../ui/field";

const FIELDS = ["amount_minor", "currency", "business_id", "account_id", "as_of"] as const;

export function RecordCashForm({ businessId, currency }: { businessId: string; currency: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const form = useCreateFormState(FIELDS);
  const money = useMoneyInput(currency);
  const accountRef = useRef<HTMLInputElement>(null);

  const record = useMutation(
    trpc.cash.createSnapshot.mutationOptions({
      onSuccess: ({ data }) => {
        form.succeeded(`The balance of ${data.account_id}`);
        money.setAmount("");
        router.refresh();
      },
      onError: (error) => {
        form.failed(error);
      },
    }),
  );

  function onSubmit() {
    const amount = money.parse();
    if (!form.checked({ amount_minor: amount.ok ? null : amount.message }) || !amount.ok) return;
    record.mutate({
      business_id: businessId,
      amount_minor: amount.minor,
      currency: money.currency,
      as_of: new Date().toISOString(),
      payload: { account_id: accountRef.current?.value.trim() || "main" },
    });
  }

  const fields = form.errors.fields as Partial<Record<(typeof FIELDS)[number], string>>;
  return (
    <CreateForm
      state={form}
      labelledBy="record-cash-heading"
      pending={record.isPending}
      submitLabel="Record cash"
      onSubmit={onSubmit}
    >
      <Field
        label="Account"
        error={fields.account_id}
        hint="A name for the bank account; a later balance of the same account replaces it."
      >
        {(control) => (
          <input
            {...control}
            ref={accountRef}
            className="input"
            name="account_id"
            autoComplete="off"
            maxLength={128}
            defaultValue="main"
            onChange={() => form.edited("account_id")}
          />
        )}
      </Field>
      <MoneyFields money={money} errors={fields} edited={(field) => form.edited(field)} />
      <p className="hint">Recorded as of now.</p>
    </CreateForm>
  );
}
