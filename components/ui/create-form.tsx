"use client";
// The "New …" forms (a business, a project): the server's validation answers beside the fields
// they concern or above the form, the submit button (usable once the page has hydrated) and
// "… was added." under it after a success.
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import { Field, FormAlert, SubmitButton } from "./field";
import { useHydrated } from "./use-hydrated";

const NO_ERRORS: TFormError = { fields: {}, summary: null };

export type TCreateFormState<TField extends string> = ReturnType<typeof useCreateFormState<TField>>;

/** The errors of a "New …" form whose fields are `fields`, and the name of what it last created. */
export function useCreateFormState<TField extends string>(fields: readonly TField[]) {
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [created, setCreated] = useState<string | null>(null);
  // Bumped whenever errors are shown: CreateForm then moves focus to the first field in error.
  const [shownErrors, setShownErrors] = useState(0);

  function clearError(field: TField) {
    if (!errors.fields[field]) return;
    const { [field]: _cleared, ...rest } = errors.fields;
    setErrors({ ...errors, fields: rest });
  }

  return {
    errors,
    created,
    shownErrors,
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
    /** Shows the server's answer (every field in error at once); returns it. */
    failed(error: unknown): TFormError {
      const formError = formErrorOf(error, fields);
      setErrors(formError);
      setCreated(null);
      setShownErrors((count) => count + 1);
      return formError;
    },
    /**
     * What the form checks itself before sending (an amount that is not one, a missing date),
     * given for every field at once: shows them all and answers false, or answers true when
     * there are none. A form never stops at its first error.
     */
    checked(found: Partial<Record<TField, string | null | undefined>>): boolean {
      const shown = Object.fromEntries(Object.entries(found).filter(([, message]) => Boolean(message))) as Record<string, string>;
      if (Object.keys(shown).length === 0) return true;
      setErrors({ fields: shown, summary: null });
      setCreated(null);
      setShownErrors((count) => count + 1);
      return false;
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
  const { errors, created, shownErrors } = props.state;
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (shownErrors > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [shownErrors]);
  return (
    <form
      ref={formRef}
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
