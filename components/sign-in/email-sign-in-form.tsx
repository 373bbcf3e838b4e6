"use client";
// The primary sign-in: an email address, then a one-time link by mail. A server action
// (app/sign-in/actions.ts), so the form also works before (or without) the page's script.
import { useActionState } from "react";
import { requestSignInLink, type TEmailSignInState } from "@/app/sign-in/actions";
import { Field, SubmitButton } from "../ui/field";

export function EmailSignInForm({ initialError, autoFocus = true }: { initialError: string | null; autoFocus?: boolean }) {
  const [state, action, pending] = useActionState<TEmailSignInState, FormData>(requestSignInLink, {
    error: initialError,
    email: "",
  });

  return (
    <form className="form" action={action} noValidate>
      <Field label="Email" error={state.error} hint="We will email you a link that signs you in. No password needed.">
        {(control) => (
          <input
            {...control}
            className="input"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="you@company.com"
            autoFocus={autoFocus}
            defaultValue={state.email}
            key={state.email}
          />
        )}
      </Field>
      <SubmitButton pending={pending} pendingLabel="Sending link…" block>
        Email me a sign-in link
      </SubmitButton>
    </form>
  );
}
