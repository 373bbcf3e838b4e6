"use client";
// The signing secret of a platform account (pinned-wave3 §1.6): the secret the platform signs
// the account's deliveries with, which proves the owner holds the account. Where the platform
// shows it is the catalog's signing_secret_location (server/sources/providers.ts, the one place
// its wording lives); the endpoint to point there is the provider's webhook path.
import { Field } from "../ui/field";
import type { TCatalogEntry } from "./catalog";

export function SigningSecretField(props: {
  entry: TCatalogEntry | undefined;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  const where = props.entry?.signing_secret_location;
  return (
    <Field
      label="Signing secret"
      error={props.error}
      hint={
        where ? (
          <>
            Where to find it: {where}. That endpoint sends to <code>{props.entry!.webhook_path}</code> on this service. Only
            deliveries signed with it reach this connection; it is stored encrypted and never shown again.
          </>
        ) : (
          "The secret the platform signs this account's deliveries with."
        )
      }
    >
      {(control) => (
        <input
          {...control}
          type="password"
          className="input mono"
          name="signing_secret"
          maxLength={512}
          autoComplete="off"
          spellCheck={false}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
