"use client";
// A <dialog> shown as a modal while `open` holds, and closed when it stops holding; `onOpen`
// runs each time it opens (reset state, select the value to copy).
import { useEffect, useRef } from "react";

export function useModalDialog(open: boolean, onOpen?: () => void) {
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
  return dialogRef;
}
