"use client";
// Step 3, first half: how the file's columns are read. The server's first preview suggests a
// mapping (the one remembered for the statement's bank account, else for this layout, else the
// preset's column names with the date and number formats read off the file); the owner changes any column or format here and the preview below
// follows at once (POST /v1/imports/{id}/preview: the kept file is read again, no new upload).
// A required field without a column is reported here, all at once, without asking the server.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formErrorByPath } from "@/lib/trpc/errors";
import { useTRPC } from "@/lib/trpc/client";
import type { TCreateImportResult } from "@/server/imports/import.schema";
import type { TDateFormat, TImportMapping, TSignConvention } from "@/server/imports/presets";
import { FIELDS, requiredFields } from "@/server/panel-contract";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { CardHeader } from "../ui/card";
import { Field, FormAlert } from "../ui/field";

type TColumns = NonNullable<TImportMapping["columns"]>;
type TColumnField = keyof TColumns;

const DATE_FORMAT_LABELS: Record<TDateFormat, string> = {
  "yyyy-mm-dd": "yyyy-mm-dd (2024-03-31)",
  "yyyy/mm/dd": "yyyy/mm/dd (2024/03/31)",
  "dd.mm.yyyy": "dd.mm.yyyy (31.03.2024)",
  "dd/mm/yyyy": "dd/mm/yyyy (31/03/2024)",
  "dd-mm-yyyy": "dd-mm-yyyy (31-03-2024)",
  "mm/dd/yyyy": "mm/dd/yyyy (03/31/2024)",
  "dd.mm.yy": "dd.mm.yy (31.03.24)",
  "dd/mm/yy": "dd/mm/yy (31/03/24)",
  "mm/dd/yy": "mm/dd/yy (03/31/24)",
};

/** Number formats as the owner reads them: decimal and thousands separators together. */
const NUMBER_FORMATS = [
  { id: "1,234.56", decimal: ".", thousands: "," },
  { id: "1.234,56", decimal: ",", thousands: "." },
  { id: "1 234,56", decimal: ",", thousands: " " },
  { id: "1 234.56", decimal: ".", thousands: " " },
  { id: "1'234.56", decimal: ".", thousands: "'" },
  { id: "1234.56", decimal: ".", thousands: null },
  { id: "1234,56", decimal: ",", thousands: null },
] as const;

const SIGN_LABELS: Record<TSignConvention, string> = {
  signed: "Signed: negative is money out",
  debit_credit: "Debit and credit columns",
  positive_is_expense: "Positive is spending (cards)",
};

const FIELD_LABELS: Record<TColumnField, string> = {
  date: "Date",
  amount: "Amount",
  debit: "Money out (debit)",
  credit: "Money in (credit)",
  currency: "Currency",
  description: "Description",
  counterparty: "Counterparty",
  counterparty_account: "Counterparty account",
  category: "Category",
  reference: "Reference",
  account: "Your account",
};

const SOURCE_NOTES: Record<string, string> = {
  saved: "The mapping you confirmed last time for this layout. Change anything that is off.",
  preset: "Suggested from the preset's column names, with the dates and amounts read off the file. Check it.",
  request: "Your mapping.",
};

function signHint(sign: TSignConvention): string {
  if (sign === "debit_credit") return "Money out in one column (debit), money in in another (credit).";
  if (sign === "positive_is_expense") return "One column; a positive amount is a purchase, a negative one a refund or payment.";
  return "One column; a negative amount is money out, a positive one money in.";
}

/** The server's fields in its order (server/imports/mapping-fields.ts), with this sign convention's amount columns. */
function fieldsOf(sign: TSignConvention): TColumnField[] {
  const otherShape: readonly TColumnField[] = sign === "debit_credit" ? ["amount"] : ["debit", "credit"];
  return FIELDS.filter((field) => !otherShape.includes(field));
}

/** The server's rule (server/imports/mapping-fields.ts): what this sign convention cannot do without. */
function requiredOf(sign: TSignConvention): TColumnField[] {
  return requiredFields(sign);
}

type TMapping = TImportMapping & { columns: TColumns; sign_convention: TSignConvention };

/** The preview's effective mapping, every column named or null. */
function initialMapping(created: TCreateImportResult): TMapping {
  const mapping = created.preview.mapping ?? {};
  return { ...mapping, sign_convention: mapping.sign_convention ?? "signed", columns: { ...mapping.columns } };
}

export function MappingStep(props: {
  created: TCreateImportResult;
  /** A re-preview is running or the confirm is: nothing to change meanwhile. */
  disabled: boolean;
  onPending: (pending: boolean) => void;
  onPreviewed: (created: TCreateImportResult) => void;
}) {
  const trpc = useTRPC();
  const { preview } = props.created;
  const header = preview.header ?? [];
  const [mapping, setMapping] = useState<TMapping>(() => initialMapping(props.created));
  const [currency, setCurrency] = useState(preview.currency_default ?? "");
  const [missing, setMissing] = useState<TColumnField[]>([]);
  const [error, setError] = useState<{ fields: Record<string, string>; summary: string | null }>({ fields: {}, summary: null });
  const [updated, setUpdated] = useState<string | null>(null);
  const repreview = useMutation(trpc.imports.preview.mutationOptions());
  // What the upload read off the file and where its mapping came from: a re-preview with an
  // explicit mapping guesses nothing, and the owner should still see why a format was chosen.
  const [guesses] = useState(() => props.created.preview.format_guesses ?? {});
  const [source, setSource] = useState(() => preview.mapping_source ?? "request");
  const [savedFor, setSavedFor] = useState(() => preview.mapping_saved_for ?? null);
  const suggestion = preview.suggested_preset ?? null;
  const dateGuess = guesses.date;
  const numberGuess = guesses.number;

  function apply(next: TMapping, nextCurrency = currency) {
    setMapping(next);
    setCurrency(nextCurrency);
    setUpdated(null);
    const gaps = requiredOf(next.sign_convention).filter((field) => !next.columns[field]);
    setMissing(gaps);
    if (gaps.length > 0) return;
    setError({ fields: {}, summary: null });
    props.onPending(true);
    repreview.mutate(
      { id: props.created.import_id, mapping: next, ...(nextCurrency ? { currency_default: nextCurrency } : {}) },
      {
        onSuccess: (answer) => {
          setUpdated(
            `Preview updated: ${answer.data.preview.would_insert} to import, ${answer.data.preview.rejected_count} rejected.`,
          );
          props.onPreviewed(answer.data);
        },
        onError: (caught) =>
          setError(
            formErrorByPath(caught, (issue) => {
              const match = /^mapping\.columns\.(\w+)/.exec(issue.path);
              return match ? { field: match[1]!, message: "This column is not in the file." } : null;
            }),
          ),
        onSettled: () => props.onPending(false),
      },
    );
  }

  /** Reads the file again with the suggested preset: its column names, the formats guessed from the file. */
  function applyPreset(presetId: string, name: string) {
    setUpdated(null);
    setMissing([]);
    setError({ fields: {}, summary: null });
    props.onPending(true);
    repreview.mutate(
      { id: props.created.import_id, preset: presetId, ...(currency ? { currency_default: currency } : {}) },
      {
        onSuccess: (answer) => {
          setMapping(initialMapping(answer.data));
          setSource(answer.data.preview.mapping_source ?? "preset");
          setSavedFor(answer.data.preview.mapping_saved_for ?? null);
          setUpdated(
            `Now read as a ${name} export: ${answer.data.preview.would_insert} to import, ${answer.data.preview.rejected_count} rejected.`,
          );
          props.onPreviewed(answer.data);
        },
        onError: (caught) => setError(formErrorByPath(caught, () => null)),
        onSettled: () => props.onPending(false),
      },
    );
  }

  function setColumn(field: TColumnField, name: string) {
    apply({ ...mapping, columns: { ...mapping.columns, [field]: name === "" ? null : name } });
  }

  function setSign(sign: TSignConvention) {
    const columns = { ...mapping.columns };
    // One amount shape only: the other shape's columns are not read.
    if (sign === "debit_credit") columns.amount = null;
    else {
      columns.debit = null;
      columns.credit = null;
    }
    apply({ ...mapping, sign_convention: sign, columns });
  }

  const numberFormat =
    NUMBER_FORMATS.find(
      (format) => format.decimal === mapping.decimal_separator && format.thousands === (mapping.thousands_separator ?? null),
    )?.id ?? "";
  const busy = props.disabled || repreview.isPending;

  return (
    <section className="card" aria-labelledby="import-mapping-heading">
      <CardHeader
        headingId="import-mapping-heading"
        title="Column mapping"
        description={
          source === "saved" && savedFor === "account" && preview.account ? (
            <>
              Mapping remembered for <strong>{preview.account}</strong>. Change anything that is off.
            </>
          ) : (
            (SOURCE_NOTES[source] ?? SOURCE_NOTES.request)
          )
        }
      />
      <div className="card-body stack">
        {suggestion ? (
          <div className="preset-suggestion">
            <p>This file matches the preset “{suggestion.name}”.</p>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => applyPreset(suggestion.id, suggestion.name)}
            >
              Use {suggestion.name}
            </button>
          </div>
        ) : null}
        <form
          className="form"
          aria-labelledby="import-mapping-heading"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            apply(mapping);
          }}
        >
          <FormAlert message={error.summary} />
          <div className="mapping-grid">
            <Field
              label="Date format"
              hint={
                dateGuess ? (
                  <>
                    {dateGuess.ambiguous ? <strong>Check this: </strong> : null}
                    Read from the file: {dateGuess.date_format}. {dateGuess.note}
                  </>
                ) : undefined
              }
            >
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={mapping.date_format ?? ""}
                  disabled={busy}
                  onChange={(event) => apply({ ...mapping, date_format: event.target.value as TDateFormat })}
                >
                  {Object.entries(DATE_FORMAT_LABELS).map(([format, label]) => (
                    <option key={format} value={format}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              label="Number format"
              hint={
                numberGuess ? (
                  <>
                    {numberGuess.ambiguous ? <strong>Check this: </strong> : null}
                    Read from the file:{" "}
                    {NUMBER_FORMATS.find(
                      (f) => f.decimal === numberGuess.decimal_separator && f.thousands === numberGuess.thousands_separator,
                    )?.id ?? `decimal "${numberGuess.decimal_separator}"`}
                    . {numberGuess.note}
                  </>
                ) : undefined
              }
            >
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={numberFormat}
                  disabled={busy}
                  onChange={(event) => {
                    const format = NUMBER_FORMATS.find((f) => f.id === event.target.value);
                    if (format) apply({ ...mapping, decimal_separator: format.decimal, thousands_separator: format.thousands });
                  }}
                >
                  {numberFormat === "" ? (
                    <option value="" disabled>
                      Choose a format
                    </option>
                  ) : null}
                  {NUMBER_FORMATS.map((format) => (
                    <option key={format.id} value={format.id}>
                      {format.id}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Amounts" hint={signHint(mapping.sign_convention)}>
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={mapping.sign_convention}
                  disabled={busy}
                  onChange={(event) => setSign(event.target.value as TSignConvention)}
                >
                  {Object.entries(SIGN_LABELS).map(([sign, label]) => (
                    <option key={sign} value={sign}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Default currency" hint="For rows without a currency column or cell.">
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={currency}
                  disabled={busy}
                  onChange={(event) => apply(mapping, event.target.value)}
                >
                  {currency && !COMMON_CURRENCIES.some((c) => c.code === currency) ? (
                    <option value={currency}>{currency}</option>
                  ) : null}
                  {COMMON_CURRENCIES.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.code} — {c.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <fieldset className="plain-fieldset">
            <legend className="label">Columns</legend>
            <div className="mapping-grid">
              {fieldsOf(mapping.sign_convention).map((field) => {
                const required = requiredOf(mapping.sign_convention).includes(field);
                const value = mapping.columns[field] ?? "";
                return (
                  <Field
                    key={field}
                    label={required ? `${FIELD_LABELS[field]} (required)` : FIELD_LABELS[field]}
                    error={
                      missing.includes(field)
                        ? `Choose the column that holds the ${FIELD_LABELS[field].toLowerCase()}.`
                        : (error.fields[field] ?? null)
                    }
                  >
                    {(control) => (
                      <select
                        {...control}
                        className="select"
                        value={value}
                        disabled={busy}
                        onChange={(event) => setColumn(field, event.target.value)}
                      >
                        <option value="">{required ? "Choose a column" : "Not in this file"}</option>
                        {header
                          .filter((name) => name.trim() !== "")
                          .map((name, index) => (
                            <option key={`${index}-${name}`} value={name}>
                              {name}
                            </option>
                          ))}
                      </select>
                    )}
                  </Field>
                );
              })}
            </div>
          </fieldset>
          <p className="hint" role="status" aria-live="polite">
            {repreview.isPending ? "Updating the preview…" : (updated ?? "")}
          </p>
        </form>
      </div>
    </section>
  );
}
