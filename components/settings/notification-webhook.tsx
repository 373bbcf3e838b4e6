"use client";
// The owner's notification webhook (PUT /v1/me/notification-webhook): the URL and whether it is
// enabled, saved together; removing it and rotating its secret each ask first. The signing
// secret comes back only when it is new (first set, set after a removal, rotated) and is shown
// once in a dialog that only "I have copied the secret" closes. A refused URL (422
// webhook_url_invalid) says why in words beside the field.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { appCodeOf, detailStringOf, formErrorOf, type TFormError } from "@/lib/trpc/errors";
import type { TNotificationPreferences } from "@/server/notifications/notification.schema";
import { webhookRuleMessage } from "../notifications/notification-words";
import { DateTime } from "../panel/preferences";
import { ActionButton } from "../ui/action-button";
import { Confirm } from "../ui/confirm";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { KeyIcon, TrashIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";
import { WebhookSecretDialog, type TShownWebhookSecret } from "./webhook-secret-dialog";

export type TWebhook = NonNullable<TNotificationPreferences["webhook"]>;
type TConfirming = "remove" | "rotate" | null;
type TAction = "save" | "remove" | "rotate";

const NO_ERRORS: TFormError = { fields: {}, summary: null };
const URL_MAX = 2048;

export function NotificationWebhook({ initial }: { initial: TWebhook | null }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [webhook, setWebhook] = useState<TWebhook | null>(initial);
  const [url, setUrl] = useState(initial?.url ?? "");
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<TConfirming>(null);
  const [shown, setShown] = useState<TShownWebhookSecret | null>(null);
  const [action, setAction] = useState<TAction>("save");

  const put = useMutation(
    trpc.notifications.setWebhook.mutationOptions({
      onSuccess: ({ data }, input) => {
        setErrors(NO_ERRORS);
        setConfirming(null);
        if (input.url === null || !data.url) {
          setWebhook(null);
          setUrl("");
          setEnabled(true);
          setNotice("The webhook was removed. Nothing more is sent to it.");
          return;
        }
        const next: TWebhook = {
          url: data.url,
          enabled: data.enabled,
          secret_hint: data.secret_hint ?? null,
          created_at: data.created_at ?? data.updated_at,
          updated_at: data.updated_at,
        };
        setWebhook(next);
        setUrl(next.url);
        setEnabled(next.enabled);
        if (data.secret) setShown({ secret: data.secret, url: next.url, rotated: input.rotate_secret === true });
        setNotice(
          input.rotate_secret
            ? "The secret was rotated: deliveries are signed with the new one from now on."
            : next.enabled
              ? "Saved. New notifications are posted to this URL."
              : "Saved. The webhook is paused: nothing is sent until you enable it.",
        );
      },
      onError: (error) => {
        setNotice(null);
        if (appCodeOf(error) === "webhook_url_invalid") {
          setErrors({ fields: { url: webhookRuleMessage(detailStringOf(error, "rule")) }, summary: null });
          return;
        }
        setErrors(formErrorOf(error, ["url", "enabled"]));
      },
    }),
  );

  function send(next: TAction, input: { url: string | null; enabled?: boolean; rotate_secret?: boolean }) {
    setAction(next);
    setNotice(null);
    put.mutate(input);
  }

  function onSave() {
    const typed = url.trim();
    if (!typed) {
      setNotice(null);
      setErrors({
        fields: { url: "Enter the https URL your system receives notifications at." },
        summary: null,
      });
      return;
    }
    if (webhook && typed === webhook.url && enabled === webhook.enabled) {
      setErrors(NO_ERRORS);
      setNotice("Nothing changed.");
      return;
    }
    send("save", { url: typed, enabled });
  }

  const busy = put.isPending;
  return (
    <>
      {webhook ? (
        <dl className="details" aria-label="Current webhook">
          <dt>URL</dt>
          <dd className="mono webhook-url" data-testid="webhook-url">
            {webhook.url}
          </dd>
          <dt>Status</dt>
          <dd>
            {webhook.enabled ? (
              <span className="pill pill-success">Enabled</span>
            ) : (
              <span className="pill pill-neutral">Paused</span>
            )}
          </dd>
          <dt>Signing secret</dt>
          <dd className="mono">{webhook.secret_hint ?? "—"}</dd>
          <dt>Last changed</dt>
          <dd>
            <DateTime iso={webhook.updated_at} withTime />
          </dd>
        </dl>
      ) : (
        <p className="card-note">
          No webhook is set. Give a public https URL of your own system and it receives every notification the Webhook channel
          above lets through, as a signed POST.
        </p>
      )}
      <div className="card-body webhook-settings">
        <form
          className="form"
          noValidate
          aria-label="Notification webhook"
          onSubmit={(event) => {
            event.preventDefault();
            onSave();
          }}
        >
          <FormAlert message={errors.summary} />
          <Field
            label="Webhook URL"
            error={errors.fields.url}
            hint="https only. Deliveries are signed, never follow a redirect and give up after 10 seconds; a failed one is retried for a day."
          >
            {(control) => (
              <input
                {...control}
                className="input mono"
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                maxLength={URL_MAX + 1}
                placeholder="https://example.com/hooks/finance"
                value={url}
                onChange={(event) => {
                  setUrl(event.target.value);
                  setNotice(null);
                  if (errors.fields.url || errors.summary) setErrors(NO_ERRORS);
                }}
              />
            )}
          </Field>
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={enabled}
                aria-describedby="webhook-enabled-hint"
                onChange={(event) => {
                  setEnabled(event.target.checked);
                  setNotice(null);
                }}
              />
              Enabled
            </label>
            <p className="hint" id="webhook-enabled-hint">
              Turn it off to pause deliveries and keep the URL and its secret; queued retries are dropped.
            </p>
          </div>
          <div className="form-actions webhook-actions">
            <SubmitButton pending={busy && action === "save"} disabled={!hydrated || busy} pendingLabel="Saving…">
              {webhook ? "Save webhook" : "Set webhook"}
            </SubmitButton>
            {webhook && confirming === null ? (
              <>
                <button type="button" className="button button-secondary" disabled={busy} onClick={() => setConfirming("rotate")}>
                  <KeyIcon />
                  Rotate secret
                </button>
                <button
                  type="button"
                  className="button button-danger-outline"
                  disabled={busy}
                  onClick={() => setConfirming("remove")}
                >
                  <TrashIcon />
                  Remove webhook
                </button>
              </>
            ) : null}
          </div>
        </form>

        {webhook && confirming === "rotate" ? (
          <Confirm
            label="Confirm secret rotation"
            action={
              <ActionButton
                look="button-primary"
                pending={busy && action === "rotate"}
                onClick={() => send("rotate", { url: webhook.url, enabled: webhook.enabled, rotate_secret: true })}
              >
                Rotate now
              </ActionButton>
            }
            onCancel={() => setConfirming(null)}
          >
            A new secret signs every delivery from now on; the current one stops at once. Your receiver needs the new one, shown
            once after this.
          </Confirm>
        ) : null}
        {webhook && confirming === "remove" ? (
          <Confirm
            label="Confirm webhook removal"
            action={
              <ActionButton
                look="button-danger"
                pending={busy && action === "remove"}
                onClick={() => send("remove", { url: null })}
              >
                Remove now
              </ActionButton>
            }
            onCancel={() => setConfirming(null)}
          >
            Nothing more is posted to <span className="mono webhook-url">{webhook.url}</span>, deliveries waiting for a retry are
            dropped, and the secret is deleted. Setting a URL again makes a new secret.
          </Confirm>
        ) : null}

        <p className="notice" role="status">
          {notice ?? ""}
        </p>
        <WebhookSecretDialog shown={shown} onClose={() => setShown(null)} />
      </div>
    </>
  );
}
