"use client";
// An agent's name, grants and allowed IP ranges: the "New agent" form and the agent page's
// editor. Grants are rows (scope, resource, level, optional daily/monthly limits in major
// units with their currency, what happens over the limit); saving sends the whole list.
// The server's validation answers (`grants.0.currency`, `allowed_ip_ranges.2`, …) appear
// beside the control they concern.
import { useMemo, useState, type FormEvent, type ReactNode } from "react";
import { formErrorByPath, type TFormError } from "@/lib/trpc/errors";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { Field, FieldError, FormAlert, SubmitButton } from "../ui/field";
import { PlusIcon, TrashIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";
import {
  agentFormChecks,
  agentFormFieldOf,
  defaultGrantResource,
  draftFromGrant,
  emptyDraft,
  grantsFromDrafts,
  LEVEL_OPTIONS,
  OVER_LIMIT_OPTIONS,
  parseIpRanges,
  SCOPE_OPTIONS,
  type TGrantDraft,
  type TGrantInput,
  type TGrantRecord,
  type TResourceOption,
} from "./grants";

export type TAgentFormValues = { name: string; grants: TGrantInput[]; allowed_ip_ranges: string[] };

const NO_ERRORS: TFormError = { fields: {}, summary: null };

export function AgentForm(props: {
  initial: { name: string; grants: TGrantRecord[]; allowed_ip_ranges: string[] };
  resources: TResourceOption[];
  defaultCurrency: string;
  /** The business the page was opened from (?business=): a new grant starts on it. */
  businessInView?: string | null;
  submitLabel: string;
  pendingLabel: string;
  /** Sends the values; a rejection is the server's error, shown in the form. */
  onSubmit: (values: TAgentFormValues) => Promise<unknown>;
  disabled?: boolean;
  /** Shown under the button after a successful save. */
  successMessage?: string;
  labelledBy: string;
}) {
  const hydrated = useHydrated();
  const [name, setName] = useState(props.initial.name);
  const [drafts, setDrafts] = useState<TGrantDraft[]>(() =>
    props.initial.grants.map((grant) => draftFromGrant(grant, props.defaultCurrency)),
  );
  const [ipText, setIpText] = useState(props.initial.allowed_ip_ranges.join("\n"));
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState(false);

  const currencies = useMemo(() => {
    const codes = [props.defaultCurrency, ...COMMON_CURRENCIES.map((currency) => currency.code)];
    for (const draft of drafts) if (draft.currency) codes.push(draft.currency);
    return [...new Set(codes)];
  }, [props.defaultCurrency, drafts]);

  function clear(field: string) {
    setSaved(false);
    if (!errors.fields[field]) return;
    const { [field]: _cleared, ...rest } = errors.fields;
    setErrors({ ...errors, fields: rest });
  }

  function updateDraft(index: number, patch: Partial<TGrantDraft>, field: string) {
    setDrafts((current) => current.map((draft, i) => (i === index ? { ...draft, ...patch } : draft)));
    clear(`grants.${index}.${field}`);
    clear(`grants.${index}`);
  }

  function removeDraft(index: number) {
    setDrafts((current) => current.filter((_, i) => i !== index));
    setSaved(false);
    // Row numbers shift: errors of the grants no longer point at the right row.
    setErrors((current) => ({
      ...current,
      fields: Object.fromEntries(Object.entries(current.fields).filter(([key]) => !key.startsWith("grants"))),
    }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { grants, errors: conversionErrors } = grantsFromDrafts(drafts);
    const allowed = parseIpRanges(ipText);
    // Everything the form can tell by itself, all at once (never only the first problem).
    const found = { ...conversionErrors, ...agentFormChecks(name, allowed) };
    if (Object.keys(found).length > 0) {
      setErrors({ fields: found, summary: null });
      focusFirstError(event.currentTarget);
      return;
    }
    const form = event.currentTarget;
    setPending(true);
    setSaved(false);
    try {
      await props.onSubmit({ name, grants, allowed_ip_ranges: allowed });
      setErrors(NO_ERRORS);
      setSaved(true);
    } catch (error) {
      setErrors(formErrorByPath(error, agentFormFieldOf(allowed)));
      focusFirstError(form);
    } finally {
      setPending(false);
    }
  }

  const disabled = props.disabled ?? false;

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby={props.labelledBy}>
      <FormAlert message={errors.summary} />
      <fieldset className="plain-fieldset" disabled={disabled}>
        <div className="form">
          <Field label="Agent name" error={errors.fields.name} hint="How you recognise it, e.g. “Ads optimiser”.">
            {(control) => (
              <input
                {...control}
                className="input"
                name="name"
                autoComplete="off"
                maxLength={200}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  clear("name");
                }}
              />
            )}
          </Field>

          <div className="field">
            <div className="field-row">
              <span className="label" id={`${props.labelledBy}-grants`}>
                Grants
              </span>
              <span className="hint">What the agent may do, and where.</span>
            </div>
            <FieldError message={errors.fields.grants} />
            {drafts.length === 0 ? (
              <p className="grants-empty">
                No grants: the agent can read its own profile and ask you for data or permissions, nothing more.
              </p>
            ) : (
              <ol className="grant-list" aria-labelledby={`${props.labelledBy}-grants`}>
                {drafts.map((draft, index) => (
                  <li key={draft.key}>
                    <GrantRow
                      index={index}
                      draft={draft}
                      resources={props.resources}
                      currencies={currencies}
                      errors={errors.fields}
                      onChange={(patch, field) => updateDraft(index, patch, field)}
                      onRemove={() => removeDraft(index)}
                    />
                  </li>
                ))}
              </ol>
            )}
            <div>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => {
                  setDrafts((current) => [
                    ...current,
                    emptyDraft(
                      props.defaultCurrency,
                      defaultGrantResource(props.resources, { inView: props.businessInView, above: current }),
                    ),
                  ]);
                  setSaved(false);
                }}
              >
                <PlusIcon />
                Add grant
              </button>
            </div>
          </div>

          <Field
            label="Allowed IP ranges"
            error={errors.fields.allowed_ip_ranges}
            hint="Optional. Addresses or CIDR ranges, separated by commas or new lines. Empty: any address."
          >
            {(control) => (
              <textarea
                {...control}
                className="input textarea mono"
                name="allowed_ip_ranges"
                rows={2}
                spellCheck={false}
                placeholder={"203.0.113.0/24, 2001:db8::/32"}
                value={ipText}
                onChange={(event) => {
                  setIpText(event.target.value);
                  clear("allowed_ip_ranges");
                }}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <div className="form-actions">
        <SubmitButton pending={pending} disabled={!hydrated || disabled} pendingLabel={props.pendingLabel}>
          {props.submitLabel}
        </SubmitButton>
        <p className="notice notice-inline" role="status">
          {saved && props.successMessage ? props.successMessage : ""}
        </p>
      </div>
    </form>
  );
}

/** Once the errors are on screen, the first field in error takes the focus. */
function focusFirstError(form: HTMLFormElement) {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

function GrantRow(props: {
  index: number;
  draft: TGrantDraft;
  resources: TResourceOption[];
  currencies: string[];
  errors: Record<string, string>;
  onChange: (patch: Partial<TGrantDraft>, field: string) => void;
  onRemove: () => void;
}) {
  const { index, draft, errors } = props;
  const error = (field: string) => errors[`grants.${index}.${field}`] ?? null;
  const groups = (["General", "Businesses", "Projects"] as const).map((group) => ({
    group,
    options: props.resources.filter((option) => option.group === group),
  }));
  const knownResource = props.resources.some((option) => option.value === draft.resource);
  const number = index + 1;

  return (
    <fieldset className="grant-row">
      <legend className="grant-legend">Grant {number}</legend>
      <button
        type="button"
        className="button button-ghost grant-remove"
        onClick={props.onRemove}
        aria-label={`Remove grant ${number}`}
      >
        <TrashIcon />
        Remove
      </button>
      <FieldError message={errors[`grants.${index}`]} />
      <div className="grant-grid grant-grid-3">
        <ChoiceField
          label="Scope"
          error={error("scope")}
          value={draft.scope}
          options={SCOPE_OPTIONS}
          onChange={(value) => props.onChange({ scope: value }, "scope")}
        />
        <Field label="Resource" error={error("resource")}>
          {(control) => (
            <Select {...control} value={draft.resource} onChange={(value) => props.onChange({ resource: value }, "resource")}>
              {knownResource ? null : <option value={draft.resource}>{draft.resource}</option>}
              {groups.map(({ group, options }) =>
                options.length === 0 ? null : (
                  <optgroup key={group} label={group}>
                    <Options options={options} />
                  </optgroup>
                ),
              )}
            </Select>
          )}
        </Field>
        <ChoiceField
          label="Level"
          error={error("level")}
          value={draft.level}
          options={LEVEL_OPTIONS}
          onChange={(value) => props.onChange({ level: value }, "level")}
        />
      </div>
      <div className="grant-grid grant-grid-4">
        {LIMIT_FIELDS.map(({ label, draftKey, field }) => (
          <Field key={field} label={label} error={error(field)}>
            {(control) => (
              <input
                {...control}
                className="input input-amount"
                inputMode="decimal"
                autoComplete="off"
                placeholder="No limit"
                value={draft[draftKey]}
                onChange={(event) => props.onChange({ [draftKey]: event.target.value }, field)}
              />
            )}
          </Field>
        ))}
        <ChoiceField
          label="Currency"
          error={error("currency")}
          value={draft.currency}
          options={props.currencies.map((code) => ({ value: code, label: code }))}
          onChange={(value) => props.onChange({ currency: value }, "currency")}
        />
        <ChoiceField
          label="Over the limit"
          error={error("over_limit")}
          value={draft.over_limit}
          options={OVER_LIMIT_OPTIONS}
          onChange={(value) => props.onChange({ over_limit: value }, "over_limit")}
        />
      </div>
    </fieldset>
  );
}

/** The spending limits of a grant row, in major units ("" is no limit). */
const LIMIT_FIELDS = [
  { label: "Daily limit", draftKey: "daily", field: "daily_limit_minor" },
  { label: "Monthly limit", draftKey: "monthly", field: "monthly_limit_minor" },
] as const;

type TOption<TValue extends string> = { value: TValue; label: string };

function Options({ options }: { options: readonly TOption<string>[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

/** A labelled select over a fixed list of options. */
function ChoiceField<TValue extends string>(props: {
  label: string;
  error: string | null;
  value: TValue;
  options: readonly TOption<TValue>[];
  onChange: (value: TValue) => void;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(control) => (
        <Select {...control} value={props.value} onChange={(value) => props.onChange(value as TValue)}>
          <Options options={props.options} />
        </Select>
      )}
    </Field>
  );
}

function Select(props: {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const { onChange, children, ...control } = props;
  return (
    <select {...control} className="select" onChange={(event) => onChange(event.target.value)}>
      {children}
    </select>
  );
}
