"use client";
// "Reserve budget": money of a business, a project or yours set aside for a purpose, with an
// optional last day. Every error shows at once: an amount the panel cannot read is still sent
// without amount_minor, so the server's answer names the other fields too (nothing is written
// while any field is wrong), and the panel's own message stands for the amount.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { majorToMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import { MoneyFields, ScopeField, useMoneyInput } from "../ledger/money-fields";
import { scopeInput, type TScopes } from "../events/scopes";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field, TextField } from "../ui/field";

const FIELDS = ["business_id", "amount_minor", "currency", "purpose", "expires_on"] as const;

export function NewReservationForm(props: { scopes: TScopes; defaultCurrency: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const [scope, setScope] = useState("personal");
  const money = useMoneyInput(props.defaultCurrency);
  const [purpose, setPurpose] = useState("");
  const [expiresOn, setExpiresOn] = useState("");

  const create = useMutation(
    trpc.reservations.create.mutationOptions({
      onSuccess: async ({ data }) => {
        form.succeeded(`The reservation “${data.purpose}”`);
        setPurpose("");
        setExpiresOn("");
        money.setAmount("");
        await queryClient.invalidateQueries({ queryKey: trpc.reservations.find.pathKey() });
      },
      onError: (error) => {
        form.failed(error);
      },
    }),
  );

  function onSubmit() {
    const parsed = majorToMinor(money.amount, money.currency);
    if (!parsed.ok)
      money.toMinor(); // shows and focuses the amount's own message
    else money.setAmountError(null);
    create.mutate({
      ...scopeInput(scope),
      // Omitted when unreadable: the server refuses the request (writing nothing) and names
      // every other wrong field in the same answer.
      amount_minor: (parsed.ok ? parsed.minor : undefined) as number,
      currency: money.currency,
      purpose,
      ...(expiresOn ? { expires_on: expiresOn } : {}),
    });
  }

  const { errors } = form;
  return (
    <CreateForm
      state={form}
      labelledBy="new-reservation-heading"
      pending={create.isPending}
      submitLabel="Reserve budget"
      onSubmit={onSubmit}
    >
      <div className="form-grid">
        <TextField
          label="Purpose"
          hint="What the money is set aside for."
          error={errors.fields.purpose}
          maxLength={500}
          placeholder="e.g. Q3 ad campaign"
          value={purpose}
          onChange={setPurpose}
          onEdited={() => form.edited("purpose")}
        />
        <ScopeField
          scopes={props.scopes}
          value={scope}
          onChange={setScope}
          error={errors.fields.business_id}
          edited={form.edited}
        />
        <MoneyFields money={money} errors={errors.fields} edited={form.edited} />
        <Field
          label="Expires on (optional)"
          error={errors.fields.expires_on}
          hint="The last day it holds; empty = until released."
        >
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={expiresOn}
              onChange={(event) => {
                setExpiresOn(event.target.value);
                form.edited("expires_on");
              }}
            />
          )}
        </Field>
      </div>
    </CreateForm>
  );
}
