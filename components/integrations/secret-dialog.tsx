"use client";
// A new generic webhook's signing secret, the one time the server shows it: a modal dialog with
// the secret and the webhook URL (each with a copy button), a plain warning that the secret will
// not be shown again, and how to sign a delivery (Node, and curl + openssl).
import { useRef, useState } from "react";
import { KeyIcon } from "../ui/icons";
import { Segmented } from "../ui/segmented";
import { CopyButton, type TCopyState } from "../ui/copy-button";
import { useModalDialog } from "../ui/use-modal-dialog";
import { curlExample, nodeExample } from "./signing-example";

export type TShownSecret = {
  integrationId: string;
  name: string;
  secret: string;
  webhookUrl: string;
  /** The business's currency, for the example event. */
  currency: string;
  today: string;
};

type TExample = "node" | "curl";
/** Taller examples scroll inside the block, so the dialog's buttons stay close. */
const EXAMPLE_MAX_ROWS = 16;
const EXAMPLES = [
  { value: "node", label: "Node" },
  { value: "curl", label: "curl + openssl" },
] as const;

export function SecretDialog({ shown, onClose }: { shown: TShownSecret | null; onClose: () => void }) {
  const secretRef = useRef<HTMLTextAreaElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const exampleRef = useRef<HTMLTextAreaElement>(null);
  const [example, setExample] = useState<TExample>("node");
  const [blocked, setBlocked] = useState(false);

  const dialogRef = useModalDialog(
    shown !== null,
    () => {
      setBlocked(false);
      setExample("node");
      secretRef.current?.select();
    },
    { dismissible: false },
  );

  const onCopy = (state: TCopyState) => setBlocked(state === "failed");
  const code = shown
    ? (example === "node" ? nodeExample : curlExample)({
        webhookUrl: shown.webhookUrl,
        integrationId: shown.integrationId,
        currency: shown.currency,
        today: shown.today,
      })
    : "";

  return (
    <dialog ref={dialogRef} className="dialog dialog-wide" aria-labelledby="secret-dialog-title" onClose={onClose}>
      {shown ? (
        <div className="dialog-body">
          <div className="dialog-icon">
            <KeyIcon />
          </div>
          <h2 id="secret-dialog-title">{shown.name} is connected</h2>
          <p>
            Your system signs every delivery with this secret and posts it to the webhook URL: <code>X-Service-Signature</code>{" "}
            carries <code>sha256=</code> and the hex HMAC-SHA256 of the raw body, <code>X-Service-Timestamp</code> the unix time
            in seconds.
          </p>
          <div className="token-warning" role="note">
            Copy the secret now: <strong>it will not be shown again.</strong> It is stored encrypted; if it is lost, connect a new
            webhook.
          </div>

          <label className="label" htmlFor="webhook-secret">
            Signing secret
          </label>
          <div className="token-box">
            <textarea
              ref={secretRef}
              id="webhook-secret"
              className="input textarea mono token-value"
              readOnly
              rows={2}
              value={shown.secret}
              onFocus={(event) => event.currentTarget.select()}
              spellCheck={false}
            />
            <CopyButton text={shown.secret} sourceRef={secretRef} what="signing secret" look="button-primary" onResult={onCopy} />
          </div>

          <label className="label" htmlFor="webhook-url">
            Webhook URL
          </label>
          <div className="token-box">
            <input
              ref={urlRef}
              id="webhook-url"
              className="input mono"
              readOnly
              value={shown.webhookUrl}
              onFocus={(event) => event.currentTarget.select()}
              spellCheck={false}
            />
            <CopyButton text={shown.webhookUrl} sourceRef={urlRef} what="webhook URL" onResult={onCopy} />
          </div>

          <div className="signing-example">
            <div className="signing-example-header">
              <span className="label" id="signing-example-label">
                Signing example
              </span>
              <Segmented label="Example language" value={example} options={EXAMPLES} onChange={setExample} />
            </div>
            <textarea
              ref={exampleRef}
              className="code-block"
              aria-labelledby="signing-example-label"
              readOnly
              rows={Math.min(code.split("\n").length, EXAMPLE_MAX_ROWS)}
              value={code}
              spellCheck={false}
              wrap="off"
            />
            <div className="signing-example-actions">
              <span className="hint">
                Sends one revenue event; add <code>signals</code> beside <code>events</code> the same way.
              </span>
              <CopyButton text={code} sourceRef={exampleRef} what="signing example" onResult={onCopy} />
            </div>
          </div>

          <p className="hint" role="status">
            {blocked ? "Copying is blocked here: the text is selected, press Ctrl+C (⌘C)." : ""}
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
