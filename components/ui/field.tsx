// A labelled form field: the label names the control (so tests and screen readers find it
// by its label), the hint and the error are tied to it with aria-describedby.
import { useId, type ReactElement, type ReactNode } from "react";
import { AlertIcon } from "./icons";

export type TFieldControlProps = {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

export function Field(props: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: (control: TFieldControlProps) => ReactElement;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.error ? errorId : null, props.hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      {props.children({
        id,
        "aria-invalid": props.error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      <FieldError message={props.error} id={errorId} />
      {props.hint ? (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A labelled text input of a form's state: each edit sets the value and tells the form the
 * field was edited (CreateForm clears that field's error then).
 */
export function TextField(props: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  value: string;
  onChange: (value: string) => void;
  onEdited?: () => void;
  maxLength: number;
  placeholder?: string;
  name?: string;
  autoComplete?: string;
  autoFocus?: boolean;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(control) => (
        <input
          {...control}
          className="input"
          name={props.name}
          maxLength={props.maxLength}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete}
          autoFocus={props.autoFocus}
          value={props.value}
          onChange={(event) => {
            props.onChange(event.target.value);
            props.onEdited?.();
          }}
        />
      )}
    </Field>
  );
}

/** A field's error, announced when it appears. */
export function FieldError({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}

export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert" role="alert">
      <AlertIcon />
      <span>{message}</span>
    </div>
  );
}

export function SubmitButton(props: {
  pending: boolean;
  /** Not usable yet (e.g. before hydration), without the pending spinner. */
  disabled?: boolean;
  children: ReactNode;
  pendingLabel: string;
  block?: boolean;
  /** The quieter style, for a form that is not the page's main one. */
  secondary?: boolean;
}) {
  const { pending, disabled = false, children, pendingLabel, block, secondary } = props;
  const look = secondary ? "button-secondary" : "button-primary";
  return (
    <button type="submit" className={`button ${look}${block ? " button-block" : ""}`} disabled={pending || disabled}>
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {pending ? pendingLabel : children}
    </button>
  );
}
