// "Are you sure?": what happens, the button that does it, and Cancel.
import type { ReactNode } from "react";

export function Confirm(props: { label: string; action: ReactNode; onCancel: () => void; children: ReactNode }) {
  return (
    <div className="confirm" role="group" aria-label={props.label}>
      <div>{props.children}</div>
      <div className="form-actions">
        {props.action}
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
