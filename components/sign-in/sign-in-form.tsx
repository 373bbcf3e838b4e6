"use client";
// The owner token form (AUTH_MODE=static only). With JavaScript it posts JSON and shows errors
// in place; without, the same form posts to the same route, which redirects back here with
// ?error=….
import { useRef, useState, type FormEvent } from "react";
import { serverFaultMessage, UNREACHABLE_MESSAGE } from "@/lib/trpc/errors";
import { Field, SubmitButton } from "../ui/field";
import { SIGN_IN_MESSAGES } from "./messages";

export function SignInForm({ initialError, autoFocus = false }: { initialError: string | null; autoFocus?: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [visible, setVisible] = useState(false);
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Read from the field (uncontrolled): text typed before hydration is kept.
    const token = (inputRef.current?.value ?? "").trim();
    if (!token) {
      setError(SIGN_IN_MESSAGES.missing_token ?? null);
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    try {
      const response = await fetch("/api/panel/sign-in", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      const body = (await response.json().catch(() => null)) as {
        data?: { redirect_to?: string };
        error?: { code?: string; message?: string };
      } | null;
      if (response.ok) {
        // A full page load, so nothing cached in the browser outlives a change of owner.
        window.location.assign(body?.data?.redirect_to ?? "/");
        return;
      }
      const code = body?.error?.code ?? "internal_error";
      setError(
        response.status >= 500
          ? serverFaultMessage(response.headers.get("x-request-id"))
          : (SIGN_IN_MESSAGES[code] ?? body?.error?.message ?? SIGN_IN_MESSAGES.internal_error ?? null),
      );
      setPending(false);
      inputRef.current?.select();
    } catch {
      setError(UNREACHABLE_MESSAGE);
      setPending(false);
    }
  }

  return (
    <form className="form" method="post" action="/api/panel/sign-in" onSubmit={onSubmit} noValidate>
      <Field label="Owner token" error={error} hint="The owner token this server was started with (STATIC_OWNER_TOKEN).">
        {(control) => (
          <div className="input-group">
            <input
              {...control}
              ref={inputRef}
              className="input mono"
              name="token"
              type={visible ? "text" : "password"}
              autoComplete="current-password"
              autoCapitalize="off"
              spellCheck={false}
              autoFocus={autoFocus}
              defaultValue=""
              onChange={() => {
                if (error) setError(null);
              }}
            />
            <button
              type="button"
              className="button button-ghost input-addon"
              aria-pressed={visible}
              onClick={() => setVisible((shown) => !shown)}
            >
              {visible ? "Hide" : "Show"}
            </button>
          </div>
        )}
      </Field>
      <SubmitButton pending={pending} pendingLabel="Signing in…" block secondary>
        Sign in with token
      </SubmitButton>
    </form>
  );
}
