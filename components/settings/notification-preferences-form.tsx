"use client";
// Where notifications go (PATCH /v1/me/notification-preferences): in-app always, the webhook and
// email each on or off with the lowest severity they receive, and the codes muted altogether.
// Only what changed is sent. The server refuses email when it has no SMTP server configured:
// that answer shows beside the email switch, with every other error of the form.
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorByPath, type TFormError } from "@/lib/trpc/errors";
import { MUTED_CODE_MAX_LENGTH, MUTED_CODE_PATTERN, MUTED_CODES_MAX } from "@/server/panel-contract";
import type { TNotificationPreferences, TUpdatePreferencesInput } from "@/server/notifications/notification.schema";
import { MIN_SEVERITY_OPTIONS, type TSeverity } from "../notifications/notification-words";
import { Field, FieldError, FormAlert, SubmitButton } from "../ui/field";
import { CloseIcon, PlusIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";

type TChannel = { enabled: boolean; min_severity: TSeverity };
type TValues = { webhook: TChannel; email: TChannel; muted: string[] };
type TField = "webhook" | "email" | "muted" | "newCode";
const NO_ERRORS: TFormError = { fields: {}, summary: null };

function valuesOf(preferences: TNotificationPreferences): TValues {
  return {
    webhook: { ...preferences.channels.webhook },
    email: { ...preferences.channels.email },
    muted: [...preferences.muted_codes],
  };
}

function sameChannel(a: TChannel, b: TChannel): boolean {
  return a.enabled === b.enabled && a.min_severity === b.min_severity;
}

/** Why a code cannot be muted as typed; null when it can. */
function mutedCodeProblem(code: string, muted: readonly string[]): string | null {
  if (!code) return "Enter a code to mute, such as approval.pending or integration.*.";
  if (code.length > MUTED_CODE_MAX_LENGTH) return `A code has at most ${MUTED_CODE_MAX_LENGTH} characters.`;
  if (!MUTED_CODE_PATTERN.test(code))
    return "Use letters, digits and . _ : - only, with * only at the end (integration.* mutes every integration alert).";
  if (muted.includes(code)) return `${code} is muted already.`;
  if (muted.length >= MUTED_CODES_MAX) return `At most ${MUTED_CODES_MAX} codes can be muted; remove one first.`;
  return null;
}

export function NotificationPreferencesForm(props: { initial: TNotificationPreferences; ownerEmail: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const formId = useId();
  const [saved, setSaved] = useState<TValues>(() => valuesOf(props.initial));
  const [values, setValues] = useState<TValues>(() => valuesOf(props.initial));
  const [newCode, setNewCode] = useState("");
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [notice, setNotice] = useState<string | null>(null);

  const update = useMutation(
    trpc.notifications.updatePreferences.mutationOptions({
      onSuccess: ({ data }) => {
        const next = valuesOf(data);
        setSaved(next);
        setValues(next);
        setErrors(NO_ERRORS);
        setNotice("Saved. New notifications follow these settings.");
      },
      onError: (error) => {
        setNotice(null);
        setErrors(
          formErrorByPath(error, (issue) => {
            const [first, second] = issue.path.split(".");
            if (first === "channels" && (second === "webhook" || second === "email")) return { field: second };
            if (first === "muted_codes") return { field: "muted" };
            return null;
          }),
        );
      },
    }),
  );

  function clearError(field: TField) {
    setNotice(null);
    if (!errors.fields[field]) return;
    const { [field]: _cleared, ...rest } = errors.fields;
    setErrors({ ...errors, fields: rest });
  }

  function setChannel(channel: "webhook" | "email", change: Partial<TChannel>) {
    setValues((current) => ({ ...current, [channel]: { ...current[channel], ...change } }));
    clearError(channel);
  }

  function addCode(): boolean {
    const code = newCode.trim();
    const problem = mutedCodeProblem(code, values.muted);
    if (problem) {
      setErrors((current) => ({ ...current, fields: { ...current.fields, newCode: problem } }));
      return false;
    }
    setValues((current) => ({ ...current, muted: [...current.muted, code] }));
    setNewCode("");
    clearError("newCode");
    clearError("muted");
    return true;
  }

  function removeCode(code: string) {
    setValues((current) => ({ ...current, muted: current.muted.filter((muted) => muted !== code) }));
    clearError("muted");
  }

  function onSubmit() {
    // A code typed but not added yet is added with the save (or its problem is shown).
    let muted = values.muted;
    const typed = newCode.trim();
    if (typed) {
      const problem = mutedCodeProblem(typed, muted);
      if (problem) {
        setNotice(null);
        setErrors({ summary: null, fields: { ...errors.fields, newCode: problem } });
        return;
      }
      muted = [...muted, typed];
      setValues((current) => ({ ...current, muted }));
      setNewCode("");
    }
    const input: TUpdatePreferencesInput = {};
    const channels: NonNullable<TUpdatePreferencesInput["channels"]> = {};
    if (!sameChannel(values.webhook, saved.webhook)) channels.webhook = values.webhook;
    if (!sameChannel(values.email, saved.email)) channels.email = values.email;
    if (Object.keys(channels).length > 0) input.channels = channels;
    if (muted.join("\n") !== saved.muted.join("\n")) input.muted_codes = muted;
    if (Object.keys(input).length === 0) {
      setErrors(NO_ERRORS);
      setNotice("Nothing changed.");
      return;
    }
    update.mutate(input);
  }

  return (
    <form
      className="form"
      noValidate
      aria-labelledby="notification-preferences-heading"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <FormAlert message={errors.summary} />
      <fieldset className="fieldset">
        <legend className="fieldset-legend">Channels</legend>
        <div className="channel-list">
          <div className="channel">
            <div className="channel-switch">
              <label className="checkbox">
                <input type="checkbox" checked disabled readOnly aria-describedby={`${formId}-in-app`} />
                In the panel
              </label>
              <p className="hint" id={`${formId}-in-app`}>
                Always on: every notification is listed under Notifications and counted on the bell.
              </p>
            </div>
          </div>
          <Channel
            name="Webhook"
            value={values.webhook}
            error={errors.fields.webhook}
            description="Signed POSTs to the URL set under Notification webhook, below."
            onChange={(change) => setChannel("webhook", change)}
          />
          <Channel
            name="Email"
            value={values.email}
            error={errors.fields.email}
            description={`A mail to ${props.ownerEmail}, its subject the notification's title.`}
            onChange={(change) => setChannel("email", change)}
          />
        </div>
      </fieldset>

      <fieldset className="fieldset">
        <legend className="fieldset-legend">Muted codes</legend>
        <p className="hint">
          A muted code creates no notification at all, in any channel. Enter an exact code (
          <span className="mono">approval.pending</span>) or a beginning ending in * (<span className="mono">integration.*</span>{" "}
          mutes every integration alert).
        </p>
        {values.muted.length === 0 ? (
          <p className="muted muted-empty">Nothing is muted: every notification is created.</p>
        ) : (
          <ul className="muted-codes" aria-label="Muted codes">
            {values.muted.map((code) => (
              <li key={code} className="muted-code">
                <span className="mono">{code}</span>
                <button
                  type="button"
                  className="button button-ghost muted-code-remove"
                  aria-label={`Unmute ${code}`}
                  onClick={() => removeCode(code)}
                >
                  <CloseIcon />
                </button>
              </li>
            ))}
          </ul>
        )}
        <FieldError message={errors.fields.muted} />
        <div className="muted-add">
          <Field label="Code to mute" error={errors.fields.newCode}>
            {(control) => (
              <input
                {...control}
                className="input mono"
                autoComplete="off"
                maxLength={MUTED_CODE_MAX_LENGTH + 1}
                placeholder="e.g. integration.campaign_paused"
                value={newCode}
                onChange={(event) => {
                  setNewCode(event.target.value);
                  clearError("newCode");
                }}
                onKeyDown={(event) => {
                  // Enter adds the code (the form's own submit is the Save button).
                  if (event.key !== "Enter") return;
                  event.preventDefault();
                  addCode();
                }}
              />
            )}
          </Field>
          <button type="button" className="button button-secondary muted-add-button" onClick={addCode}>
            <PlusIcon />
            Add
          </button>
        </div>
      </fieldset>

      <div className="form-actions">
        <SubmitButton pending={update.isPending} disabled={!hydrated} pendingLabel="Saving…">
          Save notification settings
        </SubmitButton>
      </div>
      <p className="notice" role="status">
        {notice ?? ""}
      </p>
    </form>
  );
}

function Channel(props: {
  name: string;
  value: TChannel;
  error: string | undefined;
  description: string;
  onChange: (change: Partial<TChannel>) => void;
}) {
  const id = useId();
  return (
    <div className="channel">
      <div className="channel-switch">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={props.value.enabled}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={[props.error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(" ")}
            onChange={(event) => props.onChange({ enabled: event.target.checked })}
          />
          {props.name}
        </label>
        <p className="hint" id={`${id}-hint`}>
          {props.description}
        </p>
        <FieldError message={props.error} id={`${id}-error`} />
      </div>
      <Field label={`${props.name} receives`}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={props.value.min_severity}
            onChange={(event) => props.onChange({ min_severity: event.target.value as TSeverity })}
          >
            {MIN_SEVERITY_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
