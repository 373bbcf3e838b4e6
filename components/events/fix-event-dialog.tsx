"use client";
// Fixing a manual event (issue 14) or an imported bank line (issue 32): "Correct" writes a new
// version of it (the old one is voided and stays listed, struck through), "Void" withdraws it
// after a confirmation. Both
// are the API's restatement operations; nothing is edited in place or deleted. Every error
// of the form shows at once: the amount and date are checked here, the rest by the server,
// whose issues land beside their fields.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { localToday } from "@/lib/days";
import { formatMinor, majorToMinor, minorToMajor } from "@/lib/money";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { useTRPC } from "@/lib/trpc/client";
import type { TEvent } from "@/server/ledger/event.schema";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { Field, FormAlert, SubmitButton, TextField } from "../ui/field";
import { useModalDialog } from "../ui/use-modal-dialog";
import { isImportedLine } from "./imported-line";

export type TFixRequest = { kind: "correct" | "void"; event: TEvent } | null;

const FIELDS = ["amount_minor", "currency", "occurred_on", "category", "description", "reason"] as const;
const NO_ERRORS: TFormError = { fields: {}, summary: null };

function what(event: TEvent): string {
  const label = event.type.replace(/_/g, " ");
  return `${label} of ${formatMinor(event.amount_minor, event.currency)} on ${event.occurred_on}${
    event.description ? ` (${event.description})` : ""
  }`;
}

export function FixEventDialog({ request, onClose }: { request: TFixRequest; onClose: () => void }) {
  const dialogRef = useModalDialog(request !== null);
  return (
    <dialog ref={dialogRef} className="dialog" aria-labelledby="fix-event-title" onClose={onClose}>
      {request ? (
        request.kind === "void" ? (
          <VoidForm key={request.event.id} event={request.event} close={() => dialogRef.current?.close()} />
        ) : (
          <CorrectForm key={request.event.id} event={request.event} close={() => dialogRef.current?.close()} />
        )
      ) : null}
    </dialog>
  );
}

function useFixDone(close: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.ledger.pathKey() });
    close();
  };
}

function VoidForm({ event, close }: { event: TEvent; close: () => void }) {
  const trpc = useTRPC();
  const done = useFixDone(close);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const mutation = useMutation(
    trpc.ledger.voidEvent.mutationOptions({ onSuccess: done, onError: (error) => setErrors(formErrorOf(error, FIELDS)) }),
  );
  return (
    <form
      className="dialog-body"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        mutation.mutate({ id: event.id, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      }}
    >
      <h2 id="fix-event-title">Void this {event.type.replace(/_/g, " ")}?</h2>
      <p>
        The {what(event)} stays in the list, struck through, and no longer counts in any total. This cannot be undone; to change
        an amount or a date instead, use Correct.
        {isImportedLine(event)
          ? " Importing the same statement again will not bring this line back: it is recognised as already imported."
          : ""}
      </p>
      <FormAlert message={errors.summary} />
      <TextField label="Reason (optional)" error={errors.fields.reason} maxLength={500} value={reason} onChange={setReason} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={close}>
          Cancel
        </button>
        <button type="submit" className="button button-danger" disabled={mutation.isPending}>
          {mutation.isPending ? <span className="spinner" aria-hidden="true" /> : null}
          {mutation.isPending ? "Voiding…" : "Void event"}
        </button>
      </div>
    </form>
  );
}

function CorrectForm({ event, close }: { event: TEvent; close: () => void }) {
  const trpc = useTRPC();
  const done = useFixDone(close);
  const [amount, setAmount] = useState(event.amount_minor === null ? "" : minorToMajor(event.amount_minor, event.currency));
  const [currency, setCurrency] = useState(event.currency);
  const [date, setDate] = useState(event.occurred_on);
  const [category, setCategory] = useState(event.category ?? "");
  const [description, setDescription] = useState(event.description ?? "");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const mutation = useMutation(
    trpc.ledger.correctEvent.mutationOptions({ onSuccess: done, onError: (error) => setErrors(formErrorOf(error, FIELDS)) }),
  );
  const currencies = COMMON_CURRENCIES.some((c) => c.code === event.currency)
    ? COMMON_CURRENCIES
    : [{ code: event.currency, name: event.currency }, ...COMMON_CURRENCIES];

  function edited(field: (typeof FIELDS)[number]) {
    if (!errors.fields[field]) return;
    const { [field]: _cleared, ...rest } = errors.fields;
    setErrors({ ...errors, fields: rest });
  }

  function onSubmit() {
    // Every check this form can make, all at once.
    const fields: Record<string, string> = {};
    const parsed = majorToMinor(amount, currency);
    if (!parsed.ok) fields.amount_minor = parsed.message;
    else if (parsed.minor <= 0) fields.amount_minor = "Enter an amount above zero.";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) fields.occurred_on = "Enter a date.";
    else if (event.state === "actual" && date > localToday()) fields.occurred_on = "An actual event cannot be in the future.";
    if (Object.keys(fields).length > 0 || !parsed.ok) {
      setErrors({ fields, summary: null });
      return;
    }
    setErrors(NO_ERRORS);
    const trimmedCategory = category.trim();
    const trimmedDescription = description.trim();
    mutation.mutate({
      id: event.id,
      // Only what changed: the server keeps the rest (and refuses a correction that changes nothing).
      ...(parsed.minor !== event.amount_minor ? { amount_minor: parsed.minor } : {}),
      ...(currency !== event.currency ? { currency } : {}),
      ...(date !== event.occurred_on ? { occurred_on: date } : {}),
      ...(trimmedCategory !== (event.category ?? "") ? { category: trimmedCategory || null } : {}),
      ...(trimmedDescription !== (event.description ?? "") ? { description: trimmedDescription || null } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    });
  }

  const { fields } = errors;
  return (
    <form
      className="dialog-body"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h2 id="fix-event-title">Correct this {event.type.replace(/_/g, " ")}</h2>
      <p>
        A corrected version replaces the {what(event)}. The old version stays listed as voided, linked to the new one, and only
        the new one counts.
        {isImportedLine(event)
          ? " The corrected version is your entry; importing the same statement again leaves it as you corrected it."
          : ""}
      </p>
      <FormAlert message={errors.summary} />
      <div className="fix-grid">
        <Field label="Amount" error={fields.amount_minor}>
          {(control) => (
            <input
              {...control}
              className="input mono input-amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => {
                setAmount(e.target.value);
                edited("amount_minor");
              }}
            />
          )}
        </Field>
        <Field label="Currency" error={fields.currency}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={currency}
              onChange={(e) => {
                setCurrency(e.target.value);
                edited("currency");
              }}
            >
              {currencies.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={event.state === "planned" ? "Planned date" : "Date"} error={fields.occurred_on}>
          {(control) => (
            <input
              {...control}
              className="input"
              type="date"
              value={date}
              onChange={(e) => {
                setDate(e.target.value);
                edited("occurred_on");
              }}
            />
          )}
        </Field>
        <TextField
          label="Category"
          error={fields.category}
          maxLength={100}
          value={category}
          onChange={setCategory}
          onEdited={() => edited("category")}
        />
      </div>
      <TextField
        label="Description"
        error={fields.description}
        maxLength={1000}
        value={description}
        onChange={setDescription}
        onEdited={() => edited("description")}
      />
      <TextField label="Reason (optional)" error={fields.reason} maxLength={500} value={reason} onChange={setReason} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={close}>
          Cancel
        </button>
        <SubmitButton pending={mutation.isPending} pendingLabel="Saving…">
          Save correction
        </SubmitButton>
      </div>
    </form>
  );
}
