"use client";
// The "New …" forms (a business, a project): the server's validation answers beside the fields
// they concern or above the form, the submit button (usable once the page has hydrated) and
// "… was added." under it after a success.
import { useState, type ReactNode, type RefObject } from "react";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { Field, FormAlert, SubmitButton } from "./field";
import { useHydrated } from "./use-hydrated";

const NO_ERRORS: TFormError = { fields: {}, summary: null };

export type TCreateFormState<TField extends string> = ReturnType<typeof useCreateFormState<TField>>;

/** The errors of a "New …" form whose fields are `fields`, and the name of what it last created. */
export function useCreateFormState<TField extends string>(fields: readonly TField[]) {
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [created, setCreated] = useState<string | null>(null);

  function clearError(field: TField) {
    if (!errors.fields[field]) return;
    const { [field]: _cleared, ...rest } = errors.fields;
    setErrors({ ...errors, fields: rest });
  }

  return {
    errors,
    created,
    clearError,
    /** Typing in a field: the "was added" notice goes, and so does the field's error. */
    edited(field: TField) {
      setCreated(null);
      clearError(field);
    },
    succeeded(name: string) {
      setErrors(NO_ERRORS);
      setCreated(name);
    },
    /** Shows the server's answer; returns it, for focusing the first field in error. */
    failed(error: unknown): TFormError {
      const formError = formErrorOf(error, fields);
      setErrors(formError);
      setCreated(null);
      return formError;
    },
  };
}

export function CreateForm<TField extends string>(props: {
  state: TCreateFormState<TField>;
  labelledBy: string;
  pending: boolean;
  submitLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const { errors, created } = props.state;
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
      noValidate
      aria-labelledby={props.labelledBy}
    >
      <FormAlert message={errors.summary} />
      {props.children}
      <div className="form-actions">
        <SubmitButton pending={props.pending} disabled={!hydrated} pendingLabel="Creating…">
          {props.submitLabel}
        </SubmitButton>
      </div>
      <p className="notice" role="status">
        {created ? `${created} was added.` : ""}
      </p>
    </form>
  );
}

/**
 * The name of what the form creates. Uncontrolled (read through `inputRef` on submit), so what
 * someone types before the page has hydrated is kept.
 */
export function NameField(props: {
  state: TCreateFormState<"name">;
  inputRef: RefObject<HTMLInputElement | null>;
  label: string;
  autoComplete: string;
  placeholder: string;
}) {
  return (
    <Field label={props.label} error={props.state.errors.fields.name}>
      {(control) => (
        <input
          {...control}
          ref={props.inputRef}
          className="input"
          name="name"
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          maxLength={200}
          defaultValue=""
          onChange={() => props.state.edited("name")}
        />
      )}
    </Field>
  );
}
