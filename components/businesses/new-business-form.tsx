"use client";
// "New business": name and reporting currency, sent to businesses.create. The server's
// validation answers are shown beside the fields they concern.
//
// The inputs are uncontrolled (read on submit): what someone types before the page's script
// has hydrated is kept, not reset.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { CreateForm, NameField, useCreateFormState } from "../ui/create-form";
import { Field } from "../ui/field";
import { COMMON_CURRENCIES, isCommonCurrency, OTHER_CURRENCY } from "./currencies";

const FIELDS = ["name", "currency"] as const;

export function NewBusinessForm({
  defaultCurrency,
  onCreated,
}: {
  defaultCurrency: string;
  /** Called once the business exists (the first-run offer moves on with it). */
  onCreated?: (business: { id: string; name: string }) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const nameRef = useRef<HTMLInputElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const otherRef = useRef<HTMLInputElement>(null);
  const [isOther, setIsOther] = useState(false);

  // The select may have been changed before hydration.
  useEffect(() => {
    setIsOther(selectRef.current?.value === OTHER_CURRENCY);
  }, []);

  const create = useMutation(
    trpc.businesses.create.mutationOptions({
      onSuccess: async ({ data }) => {
        form.succeeded(data.name);
        if (nameRef.current) nameRef.current.value = "";
        await queryClient.invalidateQueries({ queryKey: trpc.businesses.find.pathKey() });
        onCreated?.({ id: data.id, name: data.name });
      },
      onError: (error) => {
        const formError = form.failed(error);
        if (formError.fields.name) nameRef.current?.focus();
        else if (formError.fields.currency) (otherRef.current ?? selectRef.current)?.focus();
      },
    }),
  );

  function onSubmit() {
    const choice = selectRef.current?.value ?? defaultCurrency;
    const currency = choice === OTHER_CURRENCY ? (otherRef.current?.value ?? "").trim().toUpperCase() : choice;
    create.mutate({ name: nameRef.current?.value ?? "", currency });
  }

  const { errors } = form;

  return (
    <CreateForm
      state={form}
      labelledBy="new-business-heading"
      pending={create.isPending}
      submitLabel="Create business"
      onSubmit={onSubmit}
    >
      <NameField state={form} inputRef={nameRef} label="Name" autoComplete="organization" placeholder="e.g. Atlas Studio" />
      <Field
        label="Currency"
        error={isOther ? null : errors.fields.currency}
        hint={isOther ? null : "The currency this business reports in."}
      >
        {(control) => (
          <select
            {...control}
            ref={selectRef}
            className="select"
            name="currency"
            defaultValue={isCommonCurrency(defaultCurrency) ? defaultCurrency : "EUR"}
            onChange={(event) => {
              const other = event.target.value === OTHER_CURRENCY;
              setIsOther(other);
              form.clearError("currency");
              if (other) requestAnimationFrame(() => otherRef.current?.focus());
            }}
          >
            {COMMON_CURRENCIES.map((currency) => (
              <option key={currency.code} value={currency.code}>
                {currency.code} — {currency.name}
              </option>
            ))}
            <option value={OTHER_CURRENCY}>Other…</option>
          </select>
        )}
      </Field>
      {isOther ? (
        <Field label="Other currency code" error={errors.fields.currency} hint="Any ISO 4217 code, e.g. THB.">
          {(control) => (
            <input
              {...control}
              ref={otherRef}
              className="input mono input-code"
              name="currency_code"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={3}
              placeholder="ABC"
              defaultValue=""
              onChange={() => form.clearError("currency")}
            />
          )}
        </Field>
      ) : null}
    </CreateForm>
  );
}
