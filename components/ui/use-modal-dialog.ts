"use client";
// A <dialog> shown as a modal while `open` holds, and closed when it stops holding; `onOpen`
// runs each time it opens (reset state, select the value to copy).
//
// `dismissible: false` is for a dialog that shows something once (an agent's token, a webhook's
// secret): neither Escape nor a click on the backdrop closes it, only its own button (which
// calls dialog.close()), so the value cannot be lost by a stray key before it was copied.
import { useEffect, useRef } from "react";

export function useModalDialog(open: boolean, onOpen?: () => void, { dismissible = true }: { dismissible?: boolean } = {}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      onOpenRef.current?.();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dismissible) return;
    // Browsers that know `closedby` (light dismiss, Escape) read it; the listeners cover the rest.
    dialog.setAttribute("closedby", "none");
    const onCancel = (event: Event) => event.preventDefault();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") event.preventDefault();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("keydown", onKeyDown);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("keydown", onKeyDown);
    };
  }, [dismissible]);
  return dialogRef;
}
