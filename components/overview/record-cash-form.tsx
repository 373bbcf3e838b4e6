"use client";
// "Record cash": a bank balance of an account (POST /v1/cash-snapshots' procedure). Cash, runway
// and free capital start from it, so a new owner is sent here first. On a business page the
// business is fixed and the balance is as of now; on the Cash page (`scopes`) the owner picks a
// business or personal and may give an earlier moment. After a save the page's figures are
// loaded again from the server, and so are the cash lists.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { majorToMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import type { TScopes } from "../events/scopes";
import { MoneyFields, useMoneyInput } from "../ledger/money-fields";
import { CreateForm, useCreateFormState } from "../ui/create-form";
import { Field } from "../ui/field";

const FIELDS = ["amount_minor", "currency", "business_id", "account_id", "as_of", "payload"] as const;

export function RecordCashForm({
  businessId,
  currency,
  scopes,
  headingId = "record-cash-heading",
}: {
  businessId?: string;
  currency: string;
  /** The businesses to choose from (and Personal); without it the balance is `businessId`'s. */
  scopes?: TScopes;
  headingId?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useCreateFormState(FIELDS);
  const money = useMoneyInput(currency);
  const accountRef = useRef<HTMLInputElement>(null);
  const [scope, setScope] = useState(businessId ? `b:${businessId}` : "personal");
  const [asOf, setAsOf] = useState("");
  const [kept, setKept] = useState<string | null>(null);

  const record = useMutation(
    trpc.cash.createSnapshot.mutationOptions({
      onSuccess: async ({ data }) => {
        if (data.outcome === "kept") {
          form.succeeded("");
          setKept(
            `A later balance of ${data.account_id} on that day is already recorded, so it was kept and this one was not saved.`,
          );
        } else {
          setKept(null);
          form.succeeded(`The balance of ${data.account_id}`);
          money.setAmount("");
        }
        await queryClient.invalidateQueries({ queryKey: trpc.cash.pathKey() });
        router.refresh();
      },
      onError: (error) => {
        setKept(null);
        form.failed(error);
      },
    }),
  );

  function onSubmit() {
    const parsed = majorToMinor(money.amount, money.currency);
    if (!parsed.ok)
      money.toMinor(); // shows and focuses the amount's own message
    else money.setAmountError(null);
    const at = asOf ? new Date(asOf) : new Date();
    record.mutate({
      ...(scope.startsWith("b:") ? { business_id: scope.slice(2) } : { personal: true as const }),
      // Omitted when unreadable: the server refuses the request (writing nothing) and names every
      // other wrong field in the same answer, so all errors show at once.
      amount_minor: (parsed.ok ? parsed.minor : undefined) as number,
      currency: money.currency,
      as_of: Number.isNaN(at.getTime()) ? asOf : at.toISOString(),
      payload: { account_id: accountRef.current?.value.trim() ?? "" },
    });
  }

  const fields = form.errors.fields as Partial<Record<(typeof FIELDS)[number], string>>;
  return (
    <CreateForm state={form} labelledBy={headingId} pending={record.isPending} submitLabel="Record cash" onSubmit={onSubmit}>
      {scopes ? (
        <Field label="Business or personal" error={fields.business_id}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={scope}
              onChange={(event) => {
                setScope(event.target.value);
                const chosen = scopes.businesses.find((b) => `b:${b.id}` === event.target.value);
                if (chosen && !money.amount) money.setCurrency(chosen.currency);
                form.edited("business_id");
              }}
            >
              {scopes.businesses.map((business) => (
                <option key={business.id} value={`b:${business.id}`}>
                  {business.name}
                </option>
              ))}
              <option value="personal">Personal</option>
            </select>
          )}
        </Field>
      ) : null}
      <Field
        label="Account"
        error={fields.account_id ?? fields.payload}
        hint="A name for the bank account; a later balance of the same account replaces it."
      >
        {(control) => (
          <input
            {...control}
            ref={accountRef}
            className="input"
            name="account_id"
            autoComplete="off"
            maxLength={128}
            defaultValue="main"
            onChange={() => {
              form.edited("account_id");
              form.edited("payload");
            }}
          />
        )}
      </Field>
      <MoneyFields money={money} errors={fields} edited={(field) => form.edited(field)} />
      {scopes ? (
        <Field
          label="As of (optional)"
          error={fields.as_of}
          hint="When you read this balance, on this device's clock; empty = now."
        >
          {(control) => (
            <input
              {...control}
              className="input"
              type="datetime-local"
              value={asOf}
              onChange={(event) => {
                setAsOf(event.target.value);
                form.edited("as_of");
              }}
            />
          )}
        </Field>
      ) : (
        <p className="hint">Recorded as of now.</p>
      )}
      {kept ? (
        <p className="notice" role="status">
          {kept}
        </p>
      ) : null}
    </CreateForm>
  );
}
