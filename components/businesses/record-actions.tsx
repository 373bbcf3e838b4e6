"use client";
// Rename and archive (or restore) a business or a project, from its row. Names are unique per
// owner (businesses) or per business (projects), compared without case: the server's 409 is
// shown under the name field. Archived records leave the pickers; their history stays.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { ActionButton } from "../ui/action-button";
import { Field, FormAlert, SubmitButton } from "../ui/field";

type TRecord = { id: string; name: string; status: "active" | "archived" };

const NO_ERRORS: TFormError = { fields: {}, summary: null };

export function RecordActions({ kind, record }: { kind: "business" | "project"; record: TRecord }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(record.name);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);

  const handlers = {
    onSuccess: async () => {
      setErrors(NO_ERRORS);
      setEditing(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.businesses.find.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.projects.find.pathKey() }),
        queryClient.invalidateQueries({ queryKey: ["panel", "scopes"] }),
      ]);
      router.refresh();
    },
    onError: (error: unknown) => setErrors(formErrorOf(error, ["name"])),
  };
  const business = useMutation(trpc.businesses.update.mutationOptions(handlers));
  const project = useMutation(trpc.projects.update.mutationOptions(handlers));
  const update = (patch: { name?: string; status?: TRecord["status"] }) =>
    kind === "business" ? business.mutate({ id: record.id, ...patch }) : project.mutate({ id: record.id, ...patch });
  const pending = business.isPending || project.isPending;
  const archived = record.status === "archived";

  if (editing) {
    return (
      <form
        className="inline-form"
        aria-label={`Rename ${record.name}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          update({ name });
        }}
      >
        <FormAlert message={errors.summary} />
        <Field label={`New name for ${record.name}`} error={errors.fields.name}>
          {(control) => (
            <input
              {...control}
              className="input"
              maxLength={200}
              autoComplete="off"
              value={name}
              autoFocus
              onChange={(event) => {
                setName(event.target.value);
                setErrors(NO_ERRORS);
              }}
            />
          )}
        </Field>
        <div className="record-actions">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save name
          </SubmitButton>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setEditing(false);
              setName(record.name);
              setErrors(NO_ERRORS);
            }}
          >
            Cancel
          </button>
        </div>
      </form>
    );
  }

  return (
    <div className="row-actions">
      <FormAlert message={errors.summary} />
      <button type="button" className="button button-secondary" onClick={() => setEditing(true)}>
        Rename<span className="visually-hidden"> {record.name}</span>
      </button>
      <ActionButton
        look="button-secondary"
        pending={pending}
        onClick={() => update({ status: archived ? "active" : "archived" })}
      >
        {archived ? "Restore" : "Archive"}
        <span className="visually-hidden"> {record.name}</span>
      </ActionButton>
    </div>
  );
}
