"use client";
// "New business": name and reporting currency, sent to businesses.create. The server's
// validation answers are shown beside the fields they concern.
//
// The inputs are uncontrolled (read on submit): what someone types before the page's script
// has hydrated is kept, not reset.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { useHydrated } from "../ui/use-hydrated";
import { COMMON_CURRENCIES, isCommonCurrency, OTHER_CURRENCY } from "./currencies";

const FIELDS = ["name", "currency"] as const;
const NO_ERRORS: TFormError = { fields: {}, summary: null };

export function NewBusinessForm({ defaultCurrency }: { defaultCurrency: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const nameRef = useRef<HTMLInputElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const otherRef = useRef<HTMLInputElement>(null);
  const [isOther, setIsOther] = useState(false);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [created, setCreated] = useState<string | null>(null);

  // The select may have been changed before hydration.
  useEffect(() => {
    setIsOther(selectRef.current?.value === OTHER_CURRENCY);
  }, []);

  const create = useMutation(
    trpc.businesses.create.mutationOptions({
      onSuccess: async ({ data }) => {
        setErrors(NO_ERRORS);
        setCreated(data.name);
        if (nameRef.current) nameRef.current.value = "";
        await queryClient.invalidateQueries({ queryKey: trpc.businesses.find.pathKey() });
      },
      onError: (error) => {
        const formError = formErrorOf(error, FIELDS);
        setErrors(formError);
        setCreated(null);
        if (formError.fields.name) nameRef.current?.focus();
        else if (formError.fields.currency) (otherRef.current ?? selectRef.current)?.focus();
      },
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const choice = selectRef.current?.value ?? defaultCurrency;
    const currency = choice === OTHER_CURRENCY ? (otherRef.current?.value ?? "").trim().toUpperCase() : choice;
    create.mutate({ name: nameRef.current?.value ?? "", currency });
  }

  function clearError(field: (typeof FIELDS)[number]) {
    if (!errors.fields[field]) return;
    const { [field]: _cleared, ...rest } = errors.fields;
    setErrors({ ...errors, fields: rest });
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="new-business-heading">
      <FormAlert message={errors.summary} />
      <Field label="Name" error={errors.fields.name}>
        {(control) => (
          <input
            {...control}
            ref={nameRef}
            className="input"
            name="name"
            autoComplete="organization"
            placeholder="e.g. Atlas Studio"
            maxLength={200}
            defaultValue=""
            onChange={() => {
              setCreated(null);
              clearError("name");
            }}
          />
        )}
      </Field>
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
              clearError("currency");
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
              onChange={() => clearError("currency")}
            />
          )}
        </Field>
      ) : null}
      <div className="form-actions">
        <SubmitButton pending={create.isPending} disabled={!hydrated} pendingLabel="Creating…">
          Create business
        </SubmitButton>
      </div>
      <p className="notice" role="status">
        {created ? `${created} was added.` : ""}
      </p>
    </form>
  );
}
