"use client";
// An agent's token, the one time the server shows it (after create and after rotate): a modal
// dialog with the token, a copy button and a plain warning that it will not be shown again.
import Link from "next/link";
import { useRef, useState } from "react";
import { CopyButton } from "../ui/copy-button";
import { KeyIcon } from "../ui/icons";
import { useModalDialog } from "../ui/use-modal-dialog";

export type TShownToken = { agentId: string; agentName: string; token: string; rotated: boolean };

export function TokenDialog({
  shown,
  onClose,
  showAgentLink,
}: {
  shown: TShownToken | null;
  onClose: () => void;
  showAgentLink?: boolean;
}) {
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [blocked, setBlocked] = useState(false);
  const dialogRef = useModalDialog(
    shown !== null,
    () => {
      setBlocked(false);
      inputRef.current?.select();
    },
    { dismissible: false },
  );

  return (
    <dialog ref={dialogRef} className="dialog" aria-labelledby="token-dialog-title" onClose={onClose}>
      {shown ? (
        <div className="dialog-body">
          <div className="dialog-icon">
            <KeyIcon />
          </div>
          <h2 id="token-dialog-title">{shown.rotated ? `New token for ${shown.agentName}` : `${shown.agentName} is ready`}</h2>
          <p>
            Give this token to the agent. It sends it as <code>Authorization: Bearer …</code> on every call to the API.
          </p>
          <div className="token-warning" role="note">
            Copy it now: <strong>you will not see it again.</strong> Only a hash is kept; if it is lost, rotate the token.
          </div>
          <label className="label" htmlFor="agent-token">
            Agent token
          </label>
          <div className="token-box">
            <textarea
              ref={inputRef}
              id="agent-token"
              className="input textarea mono token-value"
              readOnly
              rows={2}
              value={shown.token}
              onFocus={(event) => event.currentTarget.select()}
              spellCheck={false}
            />
            <CopyButton
              key={shown.token}
              text={shown.token}
              sourceRef={inputRef}
              look="button-primary"
              onResult={(state) => setBlocked(state === "failed")}
            />
          </div>
          <p className="hint" role="status">
            {blocked ? "Copying is blocked here: the token is selected, press Ctrl+C (⌘C)." : ""}
          </p>
          <div className="dialog-actions">
            {showAgentLink ? (
              <Link href={`/agents/${shown.agentId}`} className="button button-secondary">
                Open agent
              </Link>
            ) : null}
            <button type="button" className="button button-primary" onClick={() => dialogRef.current?.close()}>
              I have copied it
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
