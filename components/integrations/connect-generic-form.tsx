"use client";
// "Connect generic webhook": a business and an optional name. The server answers with the
// signing secret once; it goes straight to the secret dialog and is dropped when that closes
// (the mutation keeps no copy: gcTime 0, reset on close).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { localToday } from "@/lib/days";
import { useTRPC } from "@/lib/trpc/client";
import { useCreateFormState } from "../ui/create-form";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { useHydrated } from "../ui/use-hydrated";
import { BusinessField, CHOOSE_BUSINESS } from "./business-field";
import { SecretDialog, type TShownSecret } from "./secret-dialog";
import type { TBusinessOption } from "./use-businesses";

const FIELDS = ["business_id", "name"] as const;

export function ConnectGenericForm(props: { businesses: TBusinessOption[]; loadingBusinesses: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const form = useCreateFormState(FIELDS);
  const [chosen, setChosen] = useState("");
  const [name, setName] = useState("");
  const [shown, setShown] = useState<TShownSecret | null>(null);
  // No default: the owner chooses the business explicitly (an empty choice is sent, so the
  // server answers every field's error at once; the business's reads "Choose …").
  const businessId = chosen;

  const connect = useMutation({
    ...trpc.integrations.connectGeneric.mutationOptions({
      onSuccess: async ({ data }, input) => {
        const business = props.businesses.find((b) => b.id === input.business_id);
        const label = input.name ?? "Generic signed webhook";
        form.succeeded(label);
        setShown({
          integrationId: data.integration_id,
          name: label,
          secret: data.secret,
          webhookUrl: data.webhook_url,
          currency: business?.currency ?? "EUR",
          today: localToday(),
        });
        setName("");
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.integrations.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.integrations.catalog.pathKey() }),
        ]);
      },
      onError: (error) => {
        form.failed(error);
      },
    }),
    gcTime: 0,
  });

  const { errors } = form;
  const noBusiness = !props.loadingBusinesses && props.businesses.length === 0;

  return (
    <>
      <form
        className="form"
        aria-labelledby="connect-generic-heading"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          connect.mutate({ business_id: businessId, ...(trimmed ? { name: trimmed } : {}) });
        }}
      >
        <FormAlert message={errors.summary} />
        <BusinessField
          businesses={props.businesses}
          loading={props.loadingBusinesses}
          value={businessId}
          error={errors.fields.business_id && !businessId ? CHOOSE_BUSINESS : errors.fields.business_id}
          onChange={(value) => {
            setChosen(value);
            form.edited("business_id");
          }}
        />
        <Field label="Name (optional)" error={errors.fields.name} hint="How it is listed, e.g. the system that sends.">
          {(control) => (
            <input
              {...control}
              className="input"
              name="name"
              maxLength={200}
              autoComplete="off"
              placeholder="e.g. Invoicing system"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                form.edited("name");
              }}
            />
          )}
        </Field>
        <div className="form-actions">
          <SubmitButton pending={connect.isPending} disabled={!hydrated || noBusiness} pendingLabel="Connecting…">
            Create webhook
          </SubmitButton>
        </div>
        <p className="notice" role="status">
          {form.created && !shown ? `${form.created} was connected.` : ""}
        </p>
      </form>
      <SecretDialog
        shown={shown}
        onClose={() => {
          setShown(null);
          connect.reset();
        }}
      />
    </>
  );
}
