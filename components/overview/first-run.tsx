"use client";
// The first run (issue 37): on the first sign-in the Overview asks for the base currency, the time
// zone and the locale, filled in with what the browser suggests (lib/first-run.ts), confirmed in
// one step (PATCH /v1/me; sending base_currency is what confirms it). A guess that changes the
// base of books that already hold events shows the same restatement preview as Settings. Once
// confirmed, and while the owner has no business, it offers the first one in that currency.
// Everything stays changeable in Settings.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { browserHints, guessPreferences, type TPreferences } from "@/lib/first-run";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { NewBusinessForm } from "../businesses/new-business-form";
import { CardSection } from "../ui/card";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { useHydrated } from "../ui/use-hydrated";
import { RebasePreview } from "../settings/profile-form";
import { PlainOptions, TimeZoneOptions } from "../settings/option-lists";
import type { TOption, TZoneGroup } from "../settings/settings-options";

const FIELDS = ["base_currency", "timezone", "locale"] as const;
const NO_ERRORS: TFormError = { fields: {}, summary: null };

/** A sample of how dates and amounts read in a locale, e.g. "31.12.2026 · 1.234,56 €". */
function sampleOf(locale: string, currency: string, timezone: string): string {
  try {
    const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: timezone }).format(
      new Date(),
    );
    const amount = new Intl.NumberFormat(locale, { style: "currency", currency }).format(1234.56);
    return `${date} · ${amount}`;
  } catch {
    return "";
  }
}

export function FirstRunQuestions(props: { current: TPreferences; zones: TZoneGroup[]; locales: TOption[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const hydrated = useHydrated();
  const [values, setValues] = useState<TPreferences>(props.current);
  const [guessed, setGuessed] = useState(false);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);

  // The browser is only known once the script runs: the server's HTML shows the current values.
  useEffect(() => {
    setValues(guessPreferences(browserHints(), props.current));
    setGuessed(true);
  }, [props.current]);

  const baseChanges = values.base_currency !== props.current.base_currency;
  const preview = useQuery({
    ...trpc.me.previewBaseCurrency.queryOptions({ base_currency: values.base_currency }),
    enabled: baseChanges,
  });
  // Books without any event have nothing to restate: the preview shows only when something would change.
  const restates = preview.data ? preview.data.data.events.actual + preview.data.data.events.planned > 0 : false;
  const refusal = baseChanges ? (preview.data?.data.refusal ?? null) : null;

  const update = useMutation(
    trpc.me.update.mutationOptions({
      onSuccess: () => router.refresh(),
      onError: (error) => setErrors(formErrorOf(error, FIELDS)),
    }),
  );

  const currencies = COMMON_CURRENCIES.some((c) => c.code === values.base_currency)
    ? COMMON_CURRENCIES
    : [{ code: values.base_currency, name: values.base_currency }, ...COMMON_CURRENCIES];
  const locales = props.locales.some((l) => l.value === values.locale)
    ? props.locales
    : [{ value: values.locale, label: values.locale }, ...props.locales];
  const set = (field: keyof TPreferences, value: string) => setValues((current) => ({ ...current, [field]: value }));

  return (
    <CardSection
      headingId="first-run-heading"
      title="Before you start: your currency, time zone and language"
      description={
        guessed
          ? "Filled in from your browser. Confirm them, or change any first; Settings can change them later."
          : "Confirm them, or change any first; Settings can change them later."
      }
    >
      <form
        className="form card-body"
        noValidate
        aria-labelledby="first-run-heading"
        data-testid="first-run"
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate(values);
        }}
      >
        <FormAlert message={errors.summary} />
        <div className="form-grid">
          <Field
            label="Base currency"
            error={errors.fields.base_currency}
            hint="Your totals across businesses are kept and shown in it."
          >
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
          <Field label="Time zone" error={errors.fields.timezone} hint="Days, “today” and the times of entries follow it.">
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
          <Field label="Language and formats" error={errors.fields.locale} hint="How dates and numbers are written.">
            {(control) => (
              <select
                {...control}
                className="select"
                value={values.locale}
                onChange={(event) => set("locale", event.target.value)}
              >
                <PlainOptions options={locales} />
              </select>
            )}
          </Field>
        </div>
        {hydrated ? (
          <p className="hint" data-testid="first-run-sample" style={{ margin: 0 }}>
            Reads as: {sampleOf(values.locale, values.base_currency, values.timezone)}
          </p>
        ) : null}
        {baseChanges && (restates || preview.isError) ? (
          <RebasePreview
            from={props.current.base_currency}
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
            Confirm and continue
          </SubmitButton>
        </div>
      </form>
    </CardSection>
  );
}

/** Offered once the questions are answered, while the owner has no business: the first one, in the base currency. */
export function FirstBusiness({ baseCurrency }: { baseCurrency: string }) {
  const router = useRouter();
  return (
    <CardSection
      headingId="new-business-heading"
      title="Your first business"
      description={`Each company you keep books for has its own currency; ${baseCurrency} is suggested. Personal money needs no business.`}
    >
      <div className="card-body" data-testid="first-business">
        <NewBusinessForm defaultCurrency={baseCurrency} onCreated={() => router.refresh()} />
      </div>
    </CardSection>
  );
}
