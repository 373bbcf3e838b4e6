"use client";
// Settings that can be edited (PATCH /v1/me): name, time zone, locale and base currency. Only
// changed fields are sent. A new base currency is previewed first (GET
// /v1/me/base-currency-preview): which events are restated and at which rates, which records
// are only converted on read, and the refusal the change would meet; saving it is explicit.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { useTRPC } from "@/lib/trpc/client";
import type { TBaseCurrencyPreview } from "@/server/me/base-currency-preview.schema";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { ScrollRegion } from "../ui/scroll-region";
import { useHydrated } from "../ui/use-hydrated";
import { PlainOptions, TimeZoneOptions } from "./option-lists";
import type { TOption, TZoneGroup } from "./settings-options";

const FIELDS = ["name", "timezone", "locale", "base_currency"] as const;
type TValues = Record<(typeof FIELDS)[number], string>;
const NO_ERRORS: TFormError = { fields: {}, summary: null };

export function ProfileForm(props: { initial: TValues; zones: TZoneGroup[]; locales: TOption[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const hydrated = useHydrated();
  const [saved, setSaved] = useState<TValues>(props.initial);
  const [values, setValues] = useState<TValues>(props.initial);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [notice, setNotice] = useState<string | null>(null);
  const currencies = COMMON_CURRENCIES.some((c) => c.code === saved.base_currency)
    ? COMMON_CURRENCIES
    : [{ code: saved.base_currency, name: saved.base_currency }, ...COMMON_CURRENCIES];

  const baseChanges = values.base_currency !== saved.base_currency;
  const preview = useQuery({
    ...trpc.me.previewBaseCurrency.queryOptions({ base_currency: values.base_currency }),
    enabled: baseChanges,
  });
  const refusal = baseChanges ? (preview.data?.data.refusal ?? null) : null;

  const update = useMutation(
    trpc.me.update.mutationOptions({
      onSuccess: ({ data }) => {
        const next = { name: data.name, timezone: data.timezone, locale: data.locale, base_currency: data.base_currency };
        setSaved(next);
        setValues(next);
        setErrors(NO_ERRORS);
        setNotice(
          baseChanges
            ? `Saved. Your books are now kept in ${data.base_currency}.`
            : "Saved. Dates and amounts now follow these settings.",
        );
        router.refresh();
      },
      onError: (error) => {
        setNotice(null);
        setErrors(formErrorOf(error, FIELDS));
      },
    }),
  );

  function set(field: keyof TValues, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setNotice(null);
    if (errors.fields[field]) {
      const { [field]: _cleared, ...rest } = errors.fields;
      setErrors({ ...errors, fields: rest });
    }
  }

  function onSubmit() {
    const changed = Object.fromEntries(FIELDS.filter((field) => values[field] !== saved[field]).map((f) => [f, values[f]]));
    if (Object.keys(changed).length === 0) {
      setNotice("Nothing changed.");
      return;
    }
    update.mutate(changed);
  }

  return (
    <form
      className="form"
      noValidate
      aria-labelledby="profile-heading"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <FormAlert message={errors.summary} />
      <div
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(auto-fill, minmax(220px, 1fr))",
          gap: "4px 16px",
          alignItems: "start",
        }}
      >
        <Field label="Name" error={errors.fields.name}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="name"
              maxLength={200}
              value={values.name}
              placeholder="Your name"
              onChange={(event) => set("name", event.target.value)}
            />
          )}
        </Field>
        <Field label="Time zone" error={errors.fields.timezone} hint="Days, “today” and due dates follow it.">
          {(control) => (
            <select
              {...control}
              className="select"
              value={values.timezone}
              onChange={(event) => set("timezone", event.target.value)}
            >
              <TimeZoneOptions zones={props.zones} />
            </select>
          )}
        </Field>
        <Field label="Locale" error={errors.fields.locale} hint="How dates and numbers are written.">
          {(control) => (
            <select {...control} className="select" value={values.locale} onChange={(event) => set("locale", event.target.value)}>
              <PlainOptions options={props.locales} />
            </select>
          )}
        </Field>
        <Field label="Base currency" error={errors.fields.base_currency} hint="Every total is kept and shown in it.">
          {(control) => (
            <select
              {...control}
              className="select"
              value={values.base_currency}
              onChange={(event) => set("base_currency", event.target.value)}
            >
              {currencies.map((currency) => (
                <option key={currency.code} value={currency.code}>
                  {currency.code} — {currency.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {baseChanges ? (
        <RebasePreview
          from={saved.base_currency}
          to={values.base_currency}
          preview={preview.data?.data ?? null}
          loading={preview.isPending}
          error={preview.isError ? formErrorOf(preview.error, []).summary : null}
        />
      ) : null}
      <div className="form-actions">
        <SubmitButton
          pending={update.isPending}
          disabled={!hydrated || (baseChanges && (preview.isPending || refusal !== null))}
          pendingLabel="Saving…"
        >
          {baseChanges ? `Save and restate in ${values.base_currency}` : "Save changes"}
        </SubmitButton>
        {baseChanges ? (
          <button type="button" className="button button-secondary" onClick={() => set("base_currency", saved.base_currency)}>
            Keep {saved.base_currency}
          </button>
        ) : null}
      </div>
      <p className="notice" role="status">
        {notice ?? ""}
      </p>
    </form>
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function RebasePreview(props: {
  from: string;
  to: string;
  preview: TBaseCurrencyPreview | null;
  loading: boolean;
  error: string | null;
}) {
  const { preview } = props;
  return (
    <section className="confirm" aria-labelledby="rebase-preview-heading" aria-live="polite">
      <h3 id="rebase-preview-heading" style={{ margin: 0, fontSize: "1rem" }}>
        Changing the base currency from {props.from} to {props.to}
      </h3>
      {props.error ? <FormAlert message={props.error} /> : null}
      {props.loading || !preview ? (
        props.error ? null : (
          <p className="muted">Working out what would change…</p>
        )
      ) : (
        <>
          {preview.refusal ? <FormAlert message={`This change would be refused now: ${preview.refusal.message}`} /> : null}
          <ul style={{ margin: 0, paddingLeft: 18, display: "grid", gap: 4 }}>
            <li>
              <strong>{plural(preview.events.actual, "recorded event", "recorded events")}</strong> restated in {props.to} from
              their original amounts, each at the rate of its own day (as if it had been recorded in {props.to}).
            </li>
            <li>
              <strong>{plural(preview.events.planned, "planned event", "planned events")}</strong> restated at today&apos;s rate.
            </li>
            <li>
              {plural(preview.converted_on_read.subscriptions, "subscription", "subscriptions")},{" "}
              {plural(preview.converted_on_read.budget_reservations, "budget reservation", "budget reservations")} and{" "}
              {plural(preview.converted_on_read.cash_snapshots, "cash balance", "cash balances")} keep their own currency and are
              shown in {props.to} at today&apos;s rate; nothing of them is rewritten.
            </li>
            <li>
              Original amounts never change, and nothing is converted through {props.from}: changing back later restates from the
              originals again.
            </li>
          </ul>
          {preview.by_currency.length > 0 ? (
            <ScrollRegion label="Events to restate by original currency">
              <table className="table table-compact">
                <caption className="visually-hidden">Events to restate by original currency</caption>
                <thead>
                  <tr>
                    <th scope="col">Original currency</th>
                    <th scope="col" className="cell-right">
                      Recorded
                    </th>
                    <th scope="col" className="cell-right">
                      Planned
                    </th>
                    <th scope="col" className="cell-right">
                      Today&apos;s rate
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.by_currency.map((row) => (
                    <tr key={row.currency}>
                      <td className="mono">{row.currency}</td>
                      <td className="cell-right mono">{row.actual_events}</td>
                      <td className="cell-right mono">{row.planned_events}</td>
                      <td className="cell-right mono" style={{ whiteSpace: "nowrap" }}>
                        {row.rate_today ? `1 ${row.currency} = ${row.rate_today.rate} ${props.to}` : "no rate"}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          ) : null}
          {preview.old_base_rate_today ? (
            <p className="hint" style={{ margin: 0 }}>
              For orientation: 1 {props.from} = {preview.old_base_rate_today.rate} {props.to} today (rate of{" "}
              {preview.old_base_rate_today.as_of}).
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
