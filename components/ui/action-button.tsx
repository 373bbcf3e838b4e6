// A button that starts something on the server: a spinner (or its icon) while that is under way.
import type { ReactNode } from "react";

export function ActionButton(props: {
  /** The look: "button-primary", "button-secondary", "button-danger", … */
  look: string;
  pending: boolean;
  /** Default: while pending. */
  disabled?: boolean;
  /** Shown before the label when not pending. */
  icon?: ReactNode;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={`button ${props.look}`} onClick={props.onClick} disabled={props.disabled ?? props.pending}>
      {props.pending ? <span className="spinner" aria-hidden="true" /> : (props.icon ?? null)}
      {props.children}
    </button>
  );
}
