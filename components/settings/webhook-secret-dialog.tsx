"use client";
// The notification webhook's signing secret, the one time the server shows it (the URL first set,
// or the secret rotated): a modal dialog with the secret, a copy button, how a delivery is signed,
// and a plain warning that it will not be shown again. Neither Escape nor a click outside closes
// it: only "I have copied the secret".
import { useRef, useState } from "react";
import { CopyButton } from "../ui/copy-button";
import { KeyIcon } from "../ui/icons";
import { useModalDialog } from "../ui/use-modal-dialog";

export type TShownWebhookSecret = { secret: string; url: string; rotated: boolean };

export function WebhookSecretDialog({ shown, onClose }: { shown: TShownWebhookSecret | null; onClose: () => void }) {
  const secretRef = useRef<HTMLTextAreaElement>(null);
  const [blocked, setBlocked] = useState(false);
  const dialogRef = useModalDialog(
    shown !== null,
    () => {
      setBlocked(false);
      secretRef.current?.select();
    },
    { dismissible: false },
  );

  return (
    <dialog ref={dialogRef} className="dialog" aria-labelledby="webhook-secret-title" onClose={onClose}>
      {shown ? (
        <div className="dialog-body">
          <div className="dialog-icon">
            <KeyIcon />
          </div>
          <h2 id="webhook-secret-title">{shown.rotated ? "A new signing secret" : "Your webhook's signing secret"}</h2>
          <p>
            Every notification is posted to <span className="mono webhook-secret-url">{shown.url}</span> with{" "}
            <code>X-Service-Timestamp</code> (Unix seconds), <code>X-Service-Event-Id</code> (drop repeats by it) and{" "}
            <code>X-Service-Signature</code>: <code>sha256=</code> and the hex HMAC-SHA256, with this secret, of the timestamp, a
            dot and the raw body. Refuse a delivery whose timestamp is over 5 minutes old.
          </p>
          <div className="token-warning" role="note">
            Copy it now: <strong>you will not see it again.</strong> It is stored encrypted; if it is lost, rotate it.
            {shown.rotated ? " The old secret no longer signs deliveries." : null}
          </div>
          <label className="label" htmlFor="notification-webhook-secret">
            Signing secret
          </label>
          <div className="token-box">
            <textarea
              ref={secretRef}
              id="notification-webhook-secret"
              className="input textarea mono token-value"
              readOnly
              rows={2}
              value={shown.secret}
              onFocus={(event) => event.currentTarget.select()}
              spellCheck={false}
            />
            <CopyButton
              key={shown.secret}
              text={shown.secret}
              sourceRef={secretRef}
              what="signing secret"
              look="button-primary"
              onResult={(state) => setBlocked(state === "failed")}
            />
          </div>
          <p className="hint" role="status">
            {blocked ? "Copying is blocked here: the secret is selected, press Ctrl+C (⌘C)." : ""}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button button-primary" onClick={() => dialogRef.current?.close()}>
              I have copied the secret
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
