"use client";
// "Connect a provider account": one of the available account-based providers (payments,
// ads, billing), a business, the account id at the provider whose webhooks land here and the
// signing secret the platform signs them with. The account id and the secret are always sent
// (empty too), so the server names every missing field at once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { useCreateFormState } from "../ui/create-form";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { useHydrated } from "../ui/use-hydrated";
import { BusinessField, CHOOSE_BUSINESS } from "./business-field";
import type { TCatalogEntry } from "./catalog";
import { SigningSecretField } from "./signing-secret-field";
import type { TBusinessOption } from "./use-businesses";

const FIELDS = ["provider", "business_id", "account_id", "signing_secret", "name"] as const;

export function ConnectAccountForm(props: {
  providers: TCatalogEntry[];
  loadingProviders: boolean;
  businesses: TBusinessOption[];
  loadingBusinesses: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const form = useCreateFormState(FIELDS);
  const [chosenProvider, setChosenProvider] = useState("");
  const [chosenBusiness, setChosenBusiness] = useState("");
  const [accountId, setAccountId] = useState("");
  const [signingSecret, setSigningSecret] = useState("");
  const [name, setName] = useState("");
  const [authorizeUrl, setAuthorizeUrl] = useState<string | null>(null);
  const provider = chosenProvider || (props.providers[0]?.provider ?? "");
  // No default: the owner chooses the business explicitly (an empty choice is sent, so the
  // server answers every field's error at once; the business's reads "Choose …").
  const businessId = chosenBusiness;
  const providerInfo = props.providers.find((p) => p.provider === provider);

  const connect = useMutation(
    trpc.integrations.connect.mutationOptions({
      onSuccess: async ({ data }) => {
        form.succeeded(data.name);
        setAuthorizeUrl(data.authorize_url);
        setAccountId("");
        setSigningSecret("");
        setName("");
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.integrations.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.integrations.catalog.pathKey() }),
        ]);
      },
      onError: (error) => {
        setAuthorizeUrl(null);
        form.failed(error);
      },
    }),
  );

  function edited(field: (typeof FIELDS)[number]) {
    form.edited(field);
    setAuthorizeUrl(null);
  }

  const { errors } = form;
  const blocked = !hydrated || !provider;

  return (
    <form
      className="form"
      aria-labelledby="connect-account-heading"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!providerInfo) return;
        const trimmedName = name.trim();
        connect.mutate({
          provider: providerInfo.provider,
          business_id: businessId,
          account_id: accountId,
          signing_secret: signingSecret,
          ...(trimmedName ? { name: trimmedName } : {}),
        });
      }}
    >
      <FormAlert message={errors.summary} />
      <Field label="Provider" error={errors.fields.provider} hint={providerInfo?.description}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={provider}
            disabled={props.loadingProviders}
            onChange={(event) => {
              setChosenProvider(event.target.value);
              edited("provider");
            }}
          >
            {props.loadingProviders ? <option value="">Loading providers…</option> : null}
            {props.providers.map((entry) => (
              <option key={entry.provider} value={entry.provider}>
                {entry.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <BusinessField
        businesses={props.businesses}
        loading={props.loadingBusinesses}
        value={businessId}
        error={errors.fields.business_id && !businessId ? CHOOSE_BUSINESS : errors.fields.business_id}
        onChange={(value) => {
          setChosenBusiness(value);
          edited("business_id");
        }}
      />
      <Field
        label="Provider account id"
        error={errors.fields.account_id}
        hint="The account at the provider whose webhooks this connection receives."
      >
        {(control) => (
          <input
            {...control}
            className="input mono"
            name="account_id"
            maxLength={128}
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. acct_1234"
            value={accountId}
            onChange={(event) => {
              setAccountId(event.target.value);
              edited("account_id");
            }}
          />
        )}
      </Field>
      <SigningSecretField
        entry={providerInfo}
        value={signingSecret}
        error={errors.fields.signing_secret}
        onChange={(value) => {
          setSigningSecret(value);
          edited("signing_secret");
        }}
      />
      <Field label="Connection name (optional)" error={errors.fields.name}>
        {(control) => (
          <input
            {...control}
            className="input"
            name="name"
            maxLength={200}
            autoComplete="off"
            placeholder={providerInfo ? `e.g. ${providerInfo.name} EU` : undefined}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              edited("name");
            }}
          />
        )}
      </Field>
      <div className="form-actions">
        <SubmitButton pending={connect.isPending} disabled={blocked} pendingLabel="Connecting…" secondary>
          Connect account
        </SubmitButton>
      </div>
      <p className="notice" role="status">
        {form.created ? `${form.created} was connected.` : ""}
        {form.created && authorizeUrl ? (
          <>
            {" "}
            <a href={authorizeUrl}>Finish authorizing it</a>.
          </>
        ) : null}
      </p>
    </form>
  );
}
