"use client";
// The scope select's state for a new event or subscription: the owner's choice once made, else
// the default (default-scope.ts) from the link they came by and the scope used last here.
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import type { TMoneyInput } from "../ledger/money-fields";
import { defaultScope, LAST_SCOPE_KEY, NO_SCOPE, scopeFromQuery } from "./default-scope";
import type { TScopes } from "./scopes";

export function useScopeChoice(scopes: TScopes) {
  const params = useSearchParams();
  const [chosen, setChosen] = useState<string | null>(null);
  // localStorage is read after hydration, so the server's HTML and the first render agree.
  const [lastUsed, setLastUsed] = useState<string | null>(null);
  useEffect(() => {
    try {
      setLastUsed(window.localStorage.getItem(LAST_SCOPE_KEY));
    } catch {
      // Storage may be off (private mode): no last scope.
    }
  }, []);
  const scope = chosen ?? defaultScope(scopes.options, { cameFrom: scopeFromQuery(params), lastUsed });
  return {
    scope,
    /** Nothing chosen yet and no default: the form asks before it sends. */
    missing: scope === NO_SCOPE,
    setScope: setChosen,
    /** After a record is created in `scope`: the next one defaults to it. */
    remember(value: string) {
      try {
        window.localStorage.setItem(LAST_SCOPE_KEY, value);
      } catch {
        // Not remembered; the next form asks or defaults as usual.
      }
      setLastUsed(value);
    },
  };
}

/**
 * The amount's currency follows the chosen scope's business (a EUR business's expense is in EUR)
 * until the owner picks a currency; Personal follows the base currency. Answers the `edited`
 * callback the money and scope fields take (it notes the owner's own currency choice).
 */
export function useCurrencyOfScope<TField extends string>(
  scopes: TScopes,
  scope: string,
  defaultCurrency: string,
  money: TMoneyInput,
  edited: (field: TField | "currency") => void,
) {
  const [currencyEdited, setCurrencyEdited] = useState(false);
  const { setCurrency, currencies } = money;
  const next = scopes.options.find((option) => option.value === scope)?.currency ?? defaultCurrency;
  const offered = currencies.some((c) => c.code === next);
  useEffect(() => {
    if (!currencyEdited && offered) setCurrency(next);
  }, [next, offered, currencyEdited, setCurrency]);
  return (field: TField | "currency") => {
    if (field === "currency") setCurrencyEdited(true);
    edited(field);
  };
}
