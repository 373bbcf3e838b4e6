"use client";

// The fields every new ledger record shares: its scope (a business, a project or personal) and
// its amount, typed in major units and converted exactly to minor units (never rounded).
import { useRef, useState } from "react";
import { majorToMinor } from "@/lib/money";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import type { TScopes } from "../events/scopes";
import { Field } from "../ui/field";

export type TMoneyInput = ReturnType<typeof useMoneyInput>;

export function useMoneyInput(defaultCurrency: string) {
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState(defaultCurrency);
  const [amountError, setAmountError] = useState<string | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const currencies = COMMON_CURRENCIES.some((c) => c.code === defaultCurrency)
    ? COMMON_CURRENCIES
    : [{ code: defaultCurrency, name: defaultCurrency }, ...COMMON_CURRENCIES];
  return {
    amount,
    setAmount,
    currency,
    setCurrency,
    amountError,
    setAmountError,
    amountRef,
    currencies,
    /** The amount in minor units, or why it is not one (shown by the form with its other errors). */
    parse() {
      setAmountError(null);
      return majorToMinor(amount, currency);
    },
    /** The amount in minor units, or null after showing (and focusing) why it is not one. */
    toMinor(): number | null {
      const parsed = majorToMinor(amount, currency);
      if (!parsed.ok) {
        setAmountError(parsed.message);
        amountRef.current?.focus();
        return null;
      }
      setAmountError(null);
      return parsed.minor;
    },
  };
}

type TEdited = (field: "amount_minor" | "currency" | "business_id") => void;

export function MoneyFields({
  money,
  errors,
  edited,
}: {
  money: TMoneyInput;
  errors: { amount_minor?: string; currency?: string };
  edited: TEdited;
}) {
  return (
    <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr) 100px", alignItems: "start", gap: 10 }}>
      <Field label="Amount" error={money.amountError ?? errors.amount_minor}>
        {(control) => (
          <input
            {...control}
            ref={money.amountRef}
            className="input mono input-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            value={money.amount}
            onChange={(event) => {
              money.setAmount(event.target.value);
              money.setAmountError(null);
              edited("amount_minor");
            }}
          />
        )}
      </Field>
      <Field label="Currency" error={errors.currency}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={money.currency}
            onChange={(event) => {
              money.setCurrency(event.target.value);
              edited("currency");
            }}
          >
            {money.currencies.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}

export function ScopeField({
  scopes,
  value,
  onChange,
  error,
  edited,
}: {
  scopes: TScopes;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  edited: TEdited;
}) {
  return (
    <Field label="Scope" error={error}>
      {(control) => (
        <select
          {...control}
          className="select"
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
            edited("business_id");
          }}
        >
          {/* No default (several businesses, no hint): the owner chooses; Personal is never picked for them. */}
          {value === "" ? (
            <option value="" disabled>
              Choose a business, project or Personal
            </option>
          ) : null}
          {scopes.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
