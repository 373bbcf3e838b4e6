"use client";
// The landing page's waitlist form. Without JavaScript it is a plain form post to
// app/api/waitlist/route.ts (which answers the thank-you page, or this page again with the errors:
// `initial`). With JavaScript it posts the same fields as JSON to POST /v1/waitlist and shows the
// confirmation, or every error at once, in place. The API decides what is valid; this only shows it.
import { useRef, useState, type FormEvent } from "react";
import { WAITLIST_FORM_PATH, waitlistOutcome, type TWaitlistFormErrors } from "@/lib/waitlist-form";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { CheckIcon } from "../ui/icons";

export type TWaitlistFormInitial = { email: string; errors: TWaitlistFormErrors };

export function WaitlistForm({ source, initial }: { source: string; initial: TWaitlistFormInitial | null }) {
  const [email, setEmail] = useState(initial?.email ?? "");
  const [errors, setErrors] = useState<TWaitlistFormErrors>(initial?.errors ?? {});
  const [pending, setPending] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { email, source: String(form.get("source") ?? ""), website: String(form.get("website") ?? "") };
    setPending(true);
    try {
      const answer = await fetch("/v1/waitlist", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      });
      const json: unknown = await answer.json().catch(() => null);
      const outcome = waitlistOutcome(answer.status, json, answer.headers.get("retry-after"));
      if (outcome.accepted) {
        setAccepted(true);
        return;
      }
      setErrors(outcome.errors);
      // The first thing to fix gets the focus: the field, else the message about the form.
      requestAnimationFrame(() => (outcome.errors.email ? emailRef.current?.focus() : alertRef.current?.focus()));
    } catch {
      setErrors({ form: "We could not reach the server. Check your connection and try again." });
    } finally {
      setPending(false);
    }
  }

  if (accepted) {
    return (
      <div className="waitlist-done" role="status" data-testid="waitlist-confirmation">
        <span className="waitlist-done-icon" aria-hidden="true">
          <CheckIcon />
        </span>
        <div>
          <h3>You are on the list</h3>
          <p>Thank you. We will write to {email.trim()} when there is room for you. Nothing else to do until then.</p>
        </div>
      </div>
    );
  }

  return (
    <form className="form waitlist-form" method="post" action={WAITLIST_FORM_PATH} noValidate onSubmit={submit}>
      <div ref={alertRef} tabIndex={-1} className="waitlist-alert">
        <FormAlert message={errors.form ?? null} />
      </div>
      <Field label="Email" error={errors.email} hint="Only to tell you when there is room for you. No newsletter.">
        {(control) => (
          <input
            {...control}
            ref={emailRef}
            className="input"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="you@company.com"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (errors.email) setErrors((current) => ({ ...current, email: undefined }));
            }}
          />
        )}
      </Field>
      <input type="hidden" name="source" value={source} />
      {/* The honeypot: people never see it and screen readers skip it; a bot filling every field fills it too. */}
      <div className="waitlist-trap" aria-hidden="true">
        <label htmlFor="waitlist-website">Website (leave empty)</label>
        <input id="waitlist-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <SubmitButton pending={pending} pendingLabel="Joining…" block>
        Join the waitlist
      </SubmitButton>
    </form>
  );
}
