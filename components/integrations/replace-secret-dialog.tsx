"use client";
// Replacing a platform connection's signing secret (PUT /v1/integrations/{id}/signing-secret):
// after the platform rotated it, or for a connection made before connect asked for it. The new
// secret is sent once and never shown again; the dialog drops it when it closes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { useTRPC } from "@/lib/trpc/client";
import type { TIntegration } from "@/server/integrations/integration.schema";
import { FormAlert, SubmitButton } from "../ui/field";
import { useModalDialog } from "../ui/use-modal-dialog";
import type { TCatalogEntry } from "./catalog";
import { SigningSecretField } from "./signing-secret-field";

const FIELDS = ["signing_secret"] as const;
const NO_ERRORS: TFormError = { fields: {}, summary: null };

export function ReplaceSecretDialog(props: {
  integration: TIntegration | null;
  entry: TCatalogEntry | undefined;
  onReplaced: (integration: TIntegration) => void;
  onClose: () => void;
}) {
  const dialogRef = useModalDialog(props.integration !== null);
  return (
    <dialog ref={dialogRef} className="dialog" aria-labelledby="replace-secret-title" onClose={props.onClose}>
      {props.integration ? (
        <ReplaceSecretForm
          key={props.integration.id}
          integration={props.integration}
          entry={props.entry}
          onReplaced={props.onReplaced}
          close={() => dialogRef.current?.close()}
        />
      ) : null}
    </dialog>
  );
}

function ReplaceSecretForm(props: {
  integration: TIntegration;
  entry: TCatalogEntry | undefined;
  onReplaced: (integration: TIntegration) => void;
  close: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState("");
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const replace = useMutation({
    ...trpc.integrations.replaceSigningSecret.mutationOptions({
      onSuccess: async ({ data }) => {
        setSecret("");
        props.onReplaced(data);
        await queryClient.invalidateQueries({ queryKey: trpc.integrations.list.pathKey() });
        props.close();
      },
      onError: (error) => setErrors(formErrorOf(error, FIELDS)),
    }),
    gcTime: 0,
  });
  const { integration } = props;
  return (
    <form
      className="dialog-body"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        replace.mutate({ id: integration.id, signing_secret: secret });
      }}
    >
      <h2 id="replace-secret-title">Replace the signing secret of {integration.name}</h2>
      <p>
        Paste the secret {props.entry?.name ?? "the platform"} now signs account <code>{integration.account_id}</code>&apos;s
        deliveries with. From then on only deliveries signed with it reach this connection.
      </p>
      <FormAlert message={errors.summary} />
      <SigningSecretField
        entry={props.entry}
        value={secret}
        error={errors.fields.signing_secret}
        onChange={(value) => {
          setSecret(value);
          setErrors(NO_ERRORS);
        }}
      />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={props.close}>
          Cancel
        </button>
        <SubmitButton pending={replace.isPending} pendingLabel="Replacing…">
          Replace secret
        </SubmitButton>
      </div>
    </form>
  );
}
