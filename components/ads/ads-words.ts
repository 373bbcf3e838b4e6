// The words and shapes the Ads tab shows for GET /v1/businesses/{id}/ads: a platform's name, a
// count, a ratio as a percentage, a signal in words, the period form's values. Formatting only:
// every figure (spend, ctr, cpc, the days) is the API's; nothing here sums or divides money.
// No React: unit-tested in ads-words.test.ts.
import { alertMessage } from "@/server/panel-contract";
import type { TAdsResponse } from "@/server/read-models/ads.schema";
import { providerInfo } from "@/server/panel-contract";

export type TAds = TAdsResponse["data"];
export type TAdsAccount = TAds["accounts"][number];
export type TAdsSignal = TAdsAccount["signals"][number];

/** A platform's name as the integrations page shows it ("social_ads" → "Social Ads"); an unknown one as sent. */
export function platformName(platform: string): string {
  return providerInfo(platform)?.name ?? platform;
}

/** The account's title: its platform and id. */
export function accountTitle(account: Pick<TAdsAccount, "platform" | "account_id">): string {
  return `${platformName(account.platform)} · ${account.account_id ?? "no account id"}`;
}

/** A whole count in the owner's locale (12,345). */
export function formatCount(value: number, locale: string): string {
  try {
    return new Intl.NumberFormat(locale).format(value);
  } catch {
    return new Intl.NumberFormat("en-US").format(value);
  }
}

/** A ratio of the API (4 decimals) as a percentage with up to 2 decimals (0.0225 → "2.25%"); null → "—". */
export function formatRatioPercent(ratio: number | null, locale: string): string {
  if (ratio === null) return "—";
  const options: Intl.NumberFormatOptions = { style: "percent", maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(locale, options).format(ratio);
  } catch {
    return new Intl.NumberFormat("en-US", options).format(ratio);
  }
}

/** What a signal says: the platform's message, else the service's words for its code. */
export function signalText(signal: Pick<TAdsSignal, "code" | "message">): string {
  return signal.message ?? alertMessage(signal.code);
}

/** The campaign, ad set or ad a signal names, for the line under it ("Campaign c1 · ad 7"). */
export function signalSubject(ref: Record<string, string>): string | null {
  const parts = [
    ref.campaign_id ? `Campaign ${ref.campaign_id}` : null,
    ref.ad_set_id ? `ad set ${ref.ad_set_id}` : null,
    ref.ad_group_id ? `ad group ${ref.ad_group_id}` : null,
    ref.ad_id ? `ad ${ref.ad_id}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The signals of every account, newest first (the tab's "Signals" card). */
export function allSignals(accounts: readonly TAdsAccount[]): Array<TAdsSignal & { account: TAdsAccount }> {
  return accounts
    .flatMap((account) => account.signals.map((signal) => ({ ...signal, account })))
    .sort((a, b) => b.occurred_at.localeCompare(a.occurred_at));
}

// ---- the period (query parameters) ----

/** `?from=` / `?to=` as sent to the API: a YYYY-MM-DD value, else undefined (the API's default). */
export function parsePeriodParam(raw: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
}

export type TPeriodErrors = { from?: string; to?: string };

/** The API's validation issues about from and to, by field (every one at once). */
export function periodErrors(issues: ReadonlyArray<{ path: string; message: string }>): TPeriodErrors {
  const errors: TPeriodErrors = {};
  for (const issue of issues) {
    const field = issue.path === "from" || issue.path === "to" ? issue.path : null;
    if (field && !errors[field]) errors[field] = sentence(issue.message);
  }
  return errors;
}

function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
