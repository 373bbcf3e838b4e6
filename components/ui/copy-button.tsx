"use client";
// Copies a text to the clipboard; where the browser refuses (an insecure origin, a denied
// permission) it selects the text's control instead, for Ctrl+C, and says so.
import { useState, type RefObject } from "react";
import { CheckIcon, CopyIcon } from "./icons";

export type TCopyState = "copied" | "failed" | null;

export function CopyButton(props: {
  text: string;
  /** The control showing the text (selected when copying is blocked). */
  sourceRef: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  /** What is copied, for screen readers when a dialog has several: "Copy" + " signing secret". */
  what?: string;
  look?: "button-primary" | "button-secondary";
  onResult?: (state: TCopyState) => void;
}) {
  const [state, setState] = useState<TCopyState>(null);

  async function copy() {
    let result: TCopyState;
    try {
      await navigator.clipboard.writeText(props.text);
      result = "copied";
    } catch {
      props.sourceRef.current?.select();
      result = document.execCommand?.("copy") ? "copied" : "failed";
    }
    setState(result);
    props.onResult?.(result);
  }

  return (
    <button type="button" className={`button ${props.look ?? "button-secondary"}`} onClick={() => void copy()}>
      {state === "copied" ? <CheckIcon /> : <CopyIcon />}
      {state === "copied" ? "Copied" : "Copy"}
      {props.what ? <span className="visually-hidden"> {props.what}</span> : null}
    </button>
  );
}
