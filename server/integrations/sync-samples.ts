// What a mock sync "fetches" from a provider in this version: a small, deterministic sample of
// the last days (UTC) in the shape the provider's webhooks deliver. Every external id derives
// from the integration id and the event's day, and every amount from a hash of both, so a
// repeat sync the same day dedupes everything and a sync the next day adds only the new day.
import { createHash } from "node:crypto";
import { addDays, todayUtc } from "../../lib/days";
import type { TIntegrationSignal, TNormalizedEvent } from "../ingest/ingest.schema";
import type { TProviderInfo } from "../sources/providers";

/** The days a sample covers: yesterday and the SAMPLE_DAYS − 1 days before it. */
export const SAMPLE_DAYS = 3;

export type TSampleTarget = {
  integrationId: string;
  provider: TProviderInfo;
  /** The provider account the connection receives (null for an OAuth connection without one). */
  accountId: string | null;
  currency: string;
};

export type TSample = { events: TNormalizedEvent[]; signals: TIntegrationSignal[] };

/** A deterministic integer in [min, max] for this integration and label. */
function amount(integrationId: string, label: string, min: number, max: number): number {
  const digest = createHash("sha256").update(`${integrationId}|${label}`).digest();
  return min + (digest.readUInt32BE(0) % (max - min + 1));
}

/** The days of the sample, oldest first. */
export function sampleDays(now: Date = new Date()): string[] {
  return Array.from({ length: SAMPLE_DAYS }, (_, i) => addDays(todayUtc(now), -(SAMPLE_DAYS - i)));
}

/** The prefix of every external id of an integration's sample (short, stable, its own). */
export function samplePrefix(integrationId: string): string {
  return `mock_${integrationId.slice(0, 8)}`;
}

export function buildSyncSample(target: TSampleTarget, now: Date = new Date()): TSample {
  switch (target.provider.kind) {
    case "payments":
      return paymentsSample(target, now);
    case "ads":
      return adsSample(target, now);
    case "billing":
      return billingSample(target, now);
    default:
      return { events: [], signals: [] };
  }
}

function base(target: TSampleTarget) {
  return {
    integration_id: target.integrationId,
    state: "actual" as const,
    currency: target.currency,
    source_type: target.provider.source_type,
  };
}

/** Two charges a day, a refund of the oldest day's first charge, a payout of the middle day. */
function paymentsSample(target: TSampleTarget, now: Date): TSample {
  const { integrationId } = target;
  const prefix = samplePrefix(integrationId);
  const days = sampleDays(now);
  const account = target.accountId ?? undefined;
  const compact = (day: string) => day.replaceAll("-", "");
  const charge = (day: string, n: number) => `${prefix}_ch_${compact(day)}_${n}`;
  const chargeAmount = (day: string, n: number) => amount(integrationId, `charge:${day}:${n}`, 1_000, 25_000);

  const events: TNormalizedEvent[] = days.flatMap((day) =>
    [1, 2].map((n) => ({
      ...base(target),
      external_id: charge(day, n),
      type: "revenue" as const,
      amount_minor: chargeAmount(day, n),
      occurred_on: day,
      category: "sales",
      description: `Card payment ${n} of ${day} (sample)`,
      payload: { platform: target.provider.provider, account_id: account },
    })),
  );
  const oldest = days[0]!;
  const newest = days.at(-1)!;
  events.push({
    ...base(target),
    external_id: `${prefix}_re_${compact(newest)}_1`,
    type: "refund",
    amount_minor: Math.floor(chargeAmount(oldest, 1) / 2),
    occurred_on: newest,
    description: `Partial refund of ${charge(oldest, 1)} (sample)`,
    payload: { platform: target.provider.provider, account_id: account, refunds_external_id: charge(oldest, 1) },
  });
  const payoutDay = days[days.length - 2] ?? oldest;
  const signals: TIntegrationSignal[] = [
    {
      integration_id: integrationId,
      external_id: `${prefix}_po_${compact(payoutDay)}`,
      code: "payout_paid",
      occurred_at: `${payoutDay}T18:00:00.000Z`,
      amount_minor: chargeAmount(payoutDay, 1) + chargeAmount(payoutDay, 2),
      currency: target.currency,
      ref: { payout_id: `po_${prefix}_${compact(payoutDay)}` },
    },
  ];
  return { events, signals };
}

/** Daily spend of two campaigns. */
function adsSample(target: TSampleTarget, now: Date): TSample {
  const { integrationId } = target;
  const prefix = samplePrefix(integrationId);
  const campaigns = ["cmp_brand", "cmp_growth"];
  const events: TNormalizedEvent[] = sampleDays(now).flatMap((day) =>
    campaigns.map((campaign) => {
      const spend = amount(integrationId, `spend:${day}:${campaign}`, 500, 15_000);
      return {
        ...base(target),
        external_id: `${prefix}_spend_${day.replaceAll("-", "")}_${campaign}`,
        type: "ad_spend" as const,
        amount_minor: spend,
        occurred_on: day,
        category: "advertising",
        description: `${target.provider.name} spend, ${campaign} (sample)`,
        payload: {
          platform: target.provider.provider,
          account_id: target.accountId ?? undefined,
          campaign_id: `${prefix}_${campaign}`,
          metrics: { impressions: spend * 7, clicks: Math.floor(spend / 40) },
        },
      };
    }),
  );
  return { events, signals: [] };
}

/** One new customer subscription a day. */
function billingSample(target: TSampleTarget, now: Date): TSample {
  const { integrationId } = target;
  const prefix = samplePrefix(integrationId);
  const plans = [
    { plan: "starter", price: 1_900 },
    { plan: "pro", price: 4_900 },
    { plan: "team", price: 9_900 },
  ];
  const events: TNormalizedEvent[] = sampleDays(now).map((day) => {
    const { plan, price } = plans[amount(integrationId, `plan:${day}`, 0, plans.length - 1)]!;
    const compact = day.replaceAll("-", "");
    return {
      ...base(target),
      external_id: `${prefix}_sub_${compact}_1`,
      type: "subscription_change" as const,
      amount_minor: price,
      occurred_on: day,
      category: "subscriptions",
      description: `New ${plan} subscription (sample)`,
      payload: {
        platform: target.provider.provider,
        account_id: target.accountId ?? undefined,
        customer_id: `cus_${prefix}_${compact}`,
        subscription_id: `sub_${prefix}_${compact}`,
        // The SaaS metrics' vocabulary (pinned-wave2 §2.7): a new subscription at this MRR.
        change: "new",
        mrr_minor: price,
        plan,
        billing_interval: "month",
      },
    };
  });
  return { events, signals: [] };
}
