"use client";
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and during hydration, true once the page's script runs. Forms
 * that only work through script keep their submit button disabled until then, so an early
 * click can never become a plain GET of the form.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
