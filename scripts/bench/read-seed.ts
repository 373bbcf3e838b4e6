// The "read" benchmark's ledger, written straight into PostgreSQL with set-based SQL
// (generate_series, INSERT … SELECT), never through HTTP: one owner with 3 businesses, 10
// projects, 40 subscriptions (some allocated over projects, some paused or cancelled, some with
// a next_charge_on long past), agents, integrations, an ads agent's ad budget changes, confirmed imports, reservations, two years
// of daily cash snapshots per account, fx rates, alerts, approvals, and events over two years
// in 5 currencies: revenue, expenses, ad spend, refunds in and out, SaaS and agent events,
// recurring charges linked to their subscriptions, planned events (fulfilled, overdue, ahead),
// voided and reconciled rows. `random()` runs after `setseed`, so a run is repeatable.
import type pg from "pg";

/** The owner's base currency is USD (the default); the other four are foreign. */
export const READ_CURRENCIES = ["USD", "EUR", "GBP", "CHF", "JPY"] as const;

/**
 * Currency → USD at the mock source's fixed cross rates (server/fx/providers/mock.ts, EUR
 * based), and the minor-unit scale to USD cents. The server runs FX_SOURCE=mock (bench.ts),
 * so these are the rates its conversions use.
 */
const USD_RATES_SQL = `
  (VALUES ('USD', 1.00000000::numeric, 1),
          ('EUR', 1.08420000, 1),
          ('GBP', round(1.0842 / 0.8531, 8), 1),
          ('CHF', round(1.0842 / 0.9512, 8), 1),
          ('JPY', round(1.0842 / 162.45, 8), 100)) AS fx(currency, usd_rate, scale)`;

/** EUR-based quotes of the four non-EUR currencies (fx_rates stores 1 EUR = rate quote). */
const EUR_QUOTES_SQL = `(VALUES ('USD', 1.0842), ('GBP', 0.8531), ('CHF', 0.9512), ('JPY', 162.45)) AS q(quote, rate)`;

/**
 * An ad_spend row's payload as the ad integrations write it (§2.8): its platform, one of two
 * accounts per platform, one of 12 campaigns, and the day's impressions and clicks.
 */
const AD_SPEND_PAYLOAD_SQL = `jsonb_build_object('platform', r.provider, 'account_id', r.provider || '-acct-' || (1 + r.n % 2),
            'campaign_id', 'cmp-' || (1 + r.n % 12),
            'metrics', jsonb_build_object('impressions', 50 + r.n % 5000, 'clicks', r.n % 97))`;

/**
 * A subscription_change event's payload (SaaS metrics, §2.7): one of 4,000 subscriptions of
 * 3,000 customers, a change, the MRR after it and, for a tenth, a remainder of ARR.
 */
const SAAS_PAYLOAD_SQL = `jsonb_build_object(
              'customer_id', 'cus_' || (r.n % 3000), 'subscription_id', 'sub_' || (r.n % 4000),
              'change', (ARRAY['new', 'new', 'expansion', 'expansion', 'contraction', 'churn', 'reactivation'])[1 + r.n % 7],
              'mrr_minor', a.amount, 'plan', (ARRAY['starter', 'pro', 'team'])[1 + r.n % 3])
            || CASE WHEN r.n % 10 = 0 THEN jsonb_build_object('mrr_remainder_minor', r.n % 12) ELSE '{}' END`;

export type TReadLedger = {
  ownerId: string;
  /** Ordered by size: the first has about half of the business events. */
  businessIds: string[];
  /** Rows written per table by the first step. */
  fixtures: Record<string, number>;
};

async function count(client: pg.Client, sql: string, values: unknown[]): Promise<number> {
  const result = await client.query(sql, values);
  return result.rowCount ?? 0;
}

/**
 * Everything but the bulk of the events: businesses, projects, subscriptions, allocations,
 * agents, integrations, imports, reservations, cash snapshots, fx rates, alerts, approvals, the
 * subscriptions' past charges and the planned events ahead. `today` is the UTC date (the owner's
 * timezone is UTC).
 */
export async function seedReadFixtures(client: pg.Client, ownerId: string, today: string): Promise<TReadLedger> {
  await client.query("SELECT setseed(0.42)");
  const fixtures: Record<string, number> = {};
  const run = async (table: string, sql: string, values: unknown[] = [ownerId]) => {
    fixtures[table] = (fixtures[table] ?? 0) + (await count(client, sql, values));
  };
  // The owner has kept these books for the two years of events (a daily brief of a past day is not empty).
  await client.query(
    `UPDATE owners SET base_currency = 'USD', base_currency_confirmed = true, timezone = 'UTC',
                       created_at = $2::date - 730 WHERE id = $1`,
    [ownerId, today],
  );

  await run(
    "businesses",
    `INSERT INTO businesses (id, owner_id, name, currency, created_at, updated_at)
     SELECT gen_random_uuid(), $1, b.name, b.currency, now() - interval '800 days', now()
     FROM (VALUES ('Read Bench 1 SaaS', 'EUR'), ('Read Bench 2 Shop', 'USD'), ('Read Bench 3 Studio', 'GBP')) AS b(name, currency)`,
  );
  const businessIds = (
    await client.query<{ id: string }>(`SELECT id FROM businesses WHERE owner_id = $1 ORDER BY name`, [ownerId])
  ).rows.map((r) => r.id);

  // 4 + 3 + 3 projects.
  await run(
    "projects",
    `INSERT INTO projects (id, owner_id, business_id, name, created_at, updated_at)
     SELECT gen_random_uuid(), $1, b.id, b.name || ' project ' || k, now() - interval '700 days', now()
     FROM (SELECT id, name, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b
     CROSS JOIN LATERAL generate_series(1, CASE WHEN b.bk = 1 THEN 4 ELSE 3 END) AS k`,
  );

  // 40 subscriptions: 12 + 10 + 10 business ones, 8 personal; intervals month (most), year,
  // quarter, week; 34 active, 3 paused, 3 cancelled; next_charge_on mostly ahead, some far past
  // (never advanced: the kernel rolls them forward).
  await run(
    "subscriptions",
    `INSERT INTO subscriptions (id, owner_id, business_id, personal, name, amount_minor, currency, billing_interval,
                                next_charge_on, category, status, source_type, created_at, updated_at)
     SELECT gen_random_uuid(), $1, b.id, b.id IS NULL, 'Subscription ' || n,
            CASE WHEN cur = 'JPY' THEN 500 + (n * 977) % 20000 ELSE 500 + (n * 7919) % 90000 END, cur,
            CASE WHEN n % 8 = 0 THEN 'year' WHEN n % 8 = 3 THEN 'quarter' WHEN n % 8 = 5 THEN 'week' ELSE 'month' END,
            CASE WHEN n % 4 = 1 THEN $2::date - (n * 11) ELSE $2::date + (n * 3) % 40 END,
            (ARRAY['hosting', 'tools', 'marketing', 'office', 'insurance'])[1 + n % 5],
            CASE WHEN n % 13 = 6 THEN 'paused' WHEN n % 13 = 9 THEN 'cancelled' ELSE 'active' END,
            'MANUAL', now() - interval '750 days', now()
     FROM generate_series(1, 40) AS n
     CROSS JOIN LATERAL (SELECT (ARRAY['USD', 'EUR', 'GBP', 'CHF', 'JPY'])[1 + n % 5] AS cur) c
     LEFT JOIN (SELECT id, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b
       ON b.bk = CASE WHEN n <= 12 THEN 1 WHEN n <= 22 THEN 2 WHEN n <= 32 THEN 3 END`,
    [ownerId, today],
  );

  // Every third business subscription split over all its business's projects (largest share first).
  await run(
    "subscription_allocations",
    `INSERT INTO subscription_allocations (subscription_id, project_id, share_bps)
     SELECT s.id, p.id,
            10000 / p.c + CASE WHEN p.k <= 10000 % p.c THEN 1 ELSE 0 END
     FROM (SELECT id, business_id, row_number() OVER (ORDER BY name) AS n FROM subscriptions
           WHERE owner_id = $1 AND business_id IS NOT NULL) s
     JOIN (SELECT id, business_id, row_number() OVER (PARTITION BY business_id ORDER BY name) AS k,
                  count(*) OVER (PARTITION BY business_id) AS c FROM projects WHERE owner_id = $1) p
       ON p.business_id = s.business_id
     WHERE s.n % 3 = 0`,
  );

  // Every fourth subscription has a capacity (seats), some nearly full, some barely used.
  await run(
    "subscription_capacities",
    `INSERT INTO subscription_capacities (subscription_id, unit, total, used, updated_at)
     SELECT s.id, 'seats', 10 + s.n % 20, (s.n * 7) % (11 + s.n % 20), now()
     FROM (SELECT id, row_number() OVER (ORDER BY name) AS n FROM subscriptions WHERE owner_id = $1) s
     WHERE s.n % 4 = 2`,
  );

  await run(
    "agents",
    `INSERT INTO agents (id, owner_id, name, status, created_at, updated_at)
     SELECT gen_random_uuid(), $1, name, 'active', now() - interval '400 days', now()
     FROM (VALUES ('Bookkeeper agent'), ('Ads agent')) AS a(name)`,
  );

  // One integration per provider that feeds events or cash, fresh (last_sync_at an hour ago).
  await run(
    "integrations",
    `INSERT INTO integrations (id, owner_id, provider, name, business_id, status, account_id, last_sync_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, i.provider, i.provider || ' (read bench)', b.id, 'active',
            'rb-' || i.provider || '-' || left($1::text, 8), now() - interval '1 hour', now() - interval '760 days', now()
     FROM (VALUES ('payments_a', 1), ('social_ads', 1), ('search_ads', 2), ('billing_a', 1), ('generic', 2),
                  ('manual_import', NULL), ('bank_provider_a', NULL)) AS i(provider, bk)
     LEFT JOIN (SELECT id, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b ON b.bk = i.bk`,
  );

  // The ads agent's budget changes (pinned-wave3 §1.3: the forecast's ad budget commitments, whose
  // campaigns' ad_spend leaves the run rate): on each ad integration, campaigns cmp-1..cmp-4 (of
  // the 12 the ad_spend rows name) changed weekly for two years, applied (one in ten failed), the
  // latest planned for 5 days ahead.
  await run(
    "ad_budget_changes",
    `INSERT INTO ad_budget_changes (id, owner_id, business_id, integration_id, platform, account_id, campaign_id,
                                    new_daily_budget_minor, counted_daily_minor, currency, effective_on, status,
                                    approval_id, agent_id, applied_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, i.business_id, i.id, i.provider, i.account_id, 'cmp-' || k,
            5000 + ((w * 37 + k * 101) % 40) * 500, 500, b.currency,
            $2::date - 7 * w + CASE WHEN w = 0 THEN 5 ELSE 0 END,
            CASE WHEN w = 0 THEN 'planned' WHEN w % 10 = 3 THEN 'failed' ELSE 'applied' END,
            gen_random_uuid(), a.id,
            CASE WHEN w > 0 AND w % 10 <> 3 THEN ($2::date - 7 * w)::timestamptz END,
            ($2::date - 7 * w)::timestamptz - interval '1 day', now()
     FROM integrations i
     JOIN businesses b ON b.id = i.business_id
     CROSS JOIN (SELECT id FROM agents WHERE owner_id = $1 AND name = 'Ads agent') a
     CROSS JOIN generate_series(1, 4) AS k
     CROSS JOIN generate_series(0, 103) AS w
     WHERE i.owner_id = $1 AND i.provider IN ('social_ads', 'search_ads')`,
    [ownerId, today],
  );

  // A confirmed statement import per business per month.
  await run(
    "imports",
    `INSERT INTO imports (id, owner_id, business_id, preset, mapping, settings, file_name, file_bytes, total_rows,
                          listed_rows, summary, proposals, status, expires_at, confirmed_at, created_at)
     SELECT gen_random_uuid(), $1, b.id, 'generic', '{}', '{}', 'statement-' || m || '.csv', 80000, 1000, 1000,
            '{}', '[]', 'confirmed', ts + interval '1 hour', ts + interval '5 minutes', ts
     FROM (SELECT id FROM businesses WHERE owner_id = $1) b
     CROSS JOIN generate_series(0, 23) AS m
     CROSS JOIN LATERAL (SELECT ($2::date - m * 30 - 2)::timestamp AT TIME ZONE 'UTC' + interval '9 hours' AS ts) t`,
    [ownerId, today],
  );

  // Reservations: active without expiry, active ahead, expired, released, partly released.
  await run(
    "budget_reservations",
    `INSERT INTO budget_reservations (id, owner_id, business_id, project_id, personal, amount_minor, released_minor,
                                      currency, purpose, status, expires_on, created_at, updated_at)
     SELECT gen_random_uuid(), $1, b.id, CASE WHEN n % 3 = 0 THEN p.id END, b.id IS NULL,
            100000 * n, CASE WHEN n % 4 = 0 THEN 25000 * n ELSE 0 END,
            (ARRAY['USD', 'EUR', 'GBP', 'CHF', 'JPY'])[1 + n % 5], 'Reserve ' || n,
            CASE WHEN n % 5 = 2 THEN 'released' ELSE 'active' END,
            CASE WHEN n % 3 = 1 THEN NULL WHEN n % 3 = 2 THEN $2::date + n * 5 ELSE $2::date - n END,
            now() - (n || ' days')::interval, now()
     FROM generate_series(1, 16) AS n
     LEFT JOIN (SELECT id, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b ON b.bk = 1 + n % 4
     LEFT JOIN LATERAL (SELECT id FROM projects WHERE business_id = b.id ORDER BY name LIMIT 1) p ON true`,
    [ownerId, today],
  );

  // Cash: 2 + 2 + 1 bank accounts (real, from the bank provider) and 1 personal manual
  // account, one snapshot a day for two years; today's is two hours old (at most since midnight
  // UTC: in the first two hours of a day it would fall on yesterday, a second snapshot that day).
  await run(
    "cash_snapshots",
    `INSERT INTO cash_snapshots (id, owner_id, business_id, personal, scope, amount_minor, currency, as_of, account_id,
                                 iban_last4, external_id, data_class, source_type, integration_id, provenance, created_at, updated_at)
     SELECT gen_random_uuid(), $1, a.business_id, a.business_id IS NULL,
            CASE WHEN a.business_id IS NULL THEN 'personal' ELSE 'business:' || a.business_id END,
            2000000 + ((d * 7919 + a.k * 104729) % 5000000), a.currency, t.as_of, a.account_id, lpad(a.k::text, 4, '0'),
            -- d = 0 is "two hours ago", which falls on yesterday's UTC date before 02:00 UTC: its own key.
            lower(a.source_type) || ':' || a.account_id || ':' ||
              CASE WHEN d = 0 THEN 'latest' ELSE to_char(t.as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD') END,
            CASE WHEN a.source_type = 'MANUAL' THEN 'manual' ELSE 'real' END, a.source_type,
            CASE WHEN a.source_type = 'MANUAL' THEN NULL ELSE i.id END, '{}', t.as_of, t.as_of
     FROM (SELECT b.id AS business_id, b.currency, 'acct-' || b.bk || '-' || k AS account_id, b.bk * 10 + k AS k, 'BANK_API' AS source_type
           FROM (SELECT id, currency, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b
           CROSS JOIN LATERAL generate_series(1, CASE WHEN b.bk = 3 THEN 1 ELSE 2 END) AS k
           UNION ALL SELECT NULL, 'USD', 'acct-personal', 99, 'MANUAL') a
     CROSS JOIN generate_series(0, 729) AS d
     CROSS JOIN LATERAL (SELECT CASE WHEN d = 0 THEN greatest(now() - interval '2 hours', $2::date::timestamp AT TIME ZONE 'UTC')
                                     ELSE ($2::date - d)::timestamp AT TIME ZONE 'UTC' + interval '20 hours' END AS as_of) t
     LEFT JOIN integrations i ON i.owner_id = $1 AND i.provider = 'bank_provider_a'`,
    [ownerId, today],
  );

  // Two years of daily ECB-style rows for the four quotes (a production-sized fx_rates).
  await run(
    "fx_rates",
    `INSERT INTO fx_rates (source, day, base, quote, rate, fetched_at)
     SELECT 'ecb', $1::date - d, 'EUR', q.quote, round((q.rate * (1 + 0.02 * sin(d / 30.0)))::numeric, 8), now()
     FROM ${EUR_QUOTES_SQL} CROSS JOIN generate_series(0, 729) AS d
     ON CONFLICT DO NOTHING`,
    [today],
  );

  await run(
    "alerts",
    `INSERT INTO alerts (id, owner_id, business_id, integration_id, code, severity, message, ref_type, ref_id, occurred_at, created_at)
     SELECT gen_random_uuid(), $1, b.id, NULL, 'integration.payment_failed', (ARRAY['info', 'warning', 'critical'])[1 + n % 3],
            'Seeded alert ' || n, 'integration_signal', gen_random_uuid()::text, now() - (n || ' days')::interval,
            now() - (n || ' days')::interval
     FROM generate_series(1, 60) AS n
     LEFT JOIN (SELECT id, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b ON b.bk = 1 + n % 3`,
  );

  // The ad integrations' signals: one every 6 hours for two years each, naming one of their two
  // accounts and 12 campaigns (the ads read model lists a period's, per account).
  await run(
    "integration_signals",
    `INSERT INTO integration_signals (id, owner_id, integration_id, external_id, code, severity, occurred_at, business_id,
                                      ref, audit_entry_id, alert_id, created_at)
     SELECT gen_random_uuid(), $1, i.id, 'rb-signal-' || n, c.code, CASE WHEN c.code = 'account_suspended' THEN 'critical' ELSE 'warning' END,
            t.at, i.business_id,
            jsonb_build_object('account_id', i.provider || '-acct-' || (1 + n % 2), 'campaign_id', 'cmp-' || (1 + n % 12)),
            gen_random_uuid(), gen_random_uuid(), t.at
     FROM integrations i
     CROSS JOIN generate_series(1, 2920) AS n
     CROSS JOIN LATERAL (SELECT (ARRAY['campaign_paused', 'budget_limited', 'ad_disapproved', 'campaign_removed',
                                       'account_suspended', 'payout_paid'])[1 + n % 6] AS code) c
     CROSS JOIN LATERAL (SELECT now() - n * interval '6 hours' AS at) t
     WHERE i.owner_id = $1 AND i.provider IN ('social_ads', 'search_ads')`,
  );

  await run(
    "approvals",
    `INSERT INTO approvals (id, owner_id, agent_id, kind, action, status, reason, params, amount_minor, currency, trigger,
                            created_at, updated_at, decided_at)
     SELECT gen_random_uuid(), $1, a.id, 'write', 'create_expense',
            CASE WHEN n <= 6 THEN 'pending' ELSE 'approved' END, 'Seeded approval ' || n, '{}', 10000 * n, 'USD',
            'level_recommend', now() - (n || ' days')::interval, now(), CASE WHEN n > 6 THEN now() - (n || ' days')::interval END
     FROM generate_series(1, 40) AS n
     CROSS JOIN LATERAL (SELECT id FROM agents WHERE owner_id = $1 ORDER BY name LIMIT 1) a`,
  );

  // Each active or cancelled subscription's past charges, linked to it (K7 skips a charge
  // already booked that day), back from its next_charge_on over two years.
  await run(
    "financial_events (subscription charges)",
    `INSERT INTO financial_events (id, owner_id, business_id, personal, type, state, status, amount_minor, currency,
                                  base_amount_minor, base_currency, fx_rate, fx_as_of, fx_source, occurred_on, category,
                                  description, source_type, provenance, confidence, payload, subscription_id, created_at, updated_at)
     SELECT gen_random_uuid(), $1, s.business_id, s.personal, 'recurring_expense', 'actual', 'confirmed', s.amount_minor,
            s.currency, round(s.amount_minor * fx.usd_rate * fx.scale)::bigint, 'USD', fx.usd_rate, c.day, 'mock', c.day,
            s.category, s.name, 'MANUAL', '{"source": {"type": "MANUAL"}}', 1, '{}', s.id,
            c.day::timestamp AT TIME ZONE 'UTC' + interval '8 hours', c.day::timestamp AT TIME ZONE 'UTC' + interval '8 hours'
     FROM subscriptions s
     JOIN ${USD_RATES_SQL} ON fx.currency = s.currency
     CROSS JOIN LATERAL generate_series(1, 110) AS k
     CROSS JOIN LATERAL (SELECT (CASE s.billing_interval
                                   WHEN 'week' THEN s.next_charge_on - 7 * k
                                   WHEN 'month' THEN (s.next_charge_on - make_interval(months => k))::date
                                   WHEN 'quarter' THEN (s.next_charge_on - make_interval(months => 3 * k))::date
                                   ELSE (s.next_charge_on - make_interval(months => 12 * k))::date END) AS day) c
     WHERE s.owner_id = $1 AND s.status <> 'paused' AND c.day < $2::date AND c.day >= $2::date - 730`,
    [ownerId, today],
  );

  // Planned events ahead (150, 10 of them planned revenue) and overdue ones not yet fulfilled (30).
  await run(
    "financial_events (planned ahead and overdue)",
    `INSERT INTO financial_events (id, owner_id, business_id, project_id, personal, type, state, status, amount_minor,
                                  currency, occurred_on, category, description, source_type, provenance, confidence, payload,
                                  created_at, updated_at)
     SELECT gen_random_uuid(), $1, b.id, CASE WHEN n % 4 = 0 THEN p.id END, b.id IS NULL,
            CASE WHEN n % 15 = 0 THEN 'revenue' ELSE 'planned_expense' END, 'planned', 'confirmed',
            CASE WHEN cur = 'JPY' THEN 1000 + (n * 7919) % 400000 ELSE 5000 + (n * 7919) % 800000 END, cur,
            CASE WHEN n <= 150 THEN $2::date + (n * 37) % 181 ELSE $2::date - 1 - (n * 7) % 60 END,
            'planned', 'Planned ' || n, 'MANUAL', '{"source": {"type": "MANUAL"}}', 1, '{}',
            now() - interval '20 days', now() - interval '20 days'
     FROM generate_series(1, 180) AS n
     CROSS JOIN LATERAL (SELECT (ARRAY['USD', 'EUR', 'GBP', 'CHF', 'JPY'])[1 + n % 5] AS cur) c
     LEFT JOIN (SELECT id, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b ON b.bk = 1 + n % 4
     LEFT JOIN LATERAL (SELECT id FROM projects WHERE business_id = b.id ORDER BY name LIMIT 1) p ON true`,
    [ownerId, today],
  );
  return { ownerId, businessIds, fixtures };
}

/**
 * Events `first`..`last` (one INSERT … SELECT) of a bulk stream `stream.first`..`stream.last`
 * spread over the two years before `today` in order, as a ledger fills: event n of the stream
 * falls on its day by position, 20 % of them backdated by up to 5 days (imports, late
 * webhooks), so the table's pages follow time as they do in production. Shares: revenue 36 %, expense 28 %, ad spend 16 % (personal ones become expenses),
 * refunds 6 % (half in, half out), subscription_change 5 % (with SaaS payloads), agent_action 4 %, recurring_expense
 * without a subscription 5 %; 10 % personal, the rest over the three businesses (45/27/18 %),
 * 60 % of business events in a project; 70 % in the scope's currency, else any of the five;
 * 1 % voided, 2 % reconciled, each three days after it arrived (uncounted_at: a daily brief of
 * a day before counts it); integrations' events carry their external ids. Each event is
 * created (created_at) on the day it arrived, so the newest are the first page of GET /v1/events.
 */
export async function seedReadEvents(
  client: pg.Client,
  ownerId: string,
  today: string,
  first: number,
  last: number,
  stream: { first: number; last: number },
): Promise<number> {
  await client.query("SELECT setseed($1)", [((first % 1000) + 1) / 1001]);
  return count(
    client,
    `WITH
     biz AS (SELECT id, currency, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1),
     proj AS (SELECT id, business_id, row_number() OVER (PARTITION BY business_id ORDER BY name) AS k,
                     count(*) OVER (PARTITION BY business_id) AS c FROM projects WHERE owner_id = $1),
     integ AS (SELECT provider, id FROM integrations WHERE owner_id = $1),
     agent AS (SELECT id, row_number() OVER (ORDER BY name) AS k FROM agents WHERE owner_id = $1),
     g AS (SELECT n, random() AS r_type, random() AS r_scope, random() AS r_proj, random() AS r_cur, random() AS r_amt,
                  random() AS r_day, random() AS r_flag, random() AS r_src, random() AS r_sec
           FROM generate_series($3::int, $4::int) AS n),
     typed AS (
       SELECT g.*,
              CASE WHEN r_scope < 0.10 THEN 0 WHEN r_scope < 0.55 THEN 1 WHEN r_scope < 0.82 THEN 2 ELSE 3 END AS bk,
              CASE WHEN r_type < 0.36 THEN 'revenue' WHEN r_type < 0.64 THEN 'expense'
                   WHEN r_type < 0.80 THEN CASE WHEN r_scope < 0.10 THEN 'expense' ELSE 'ad_spend' END
                   WHEN r_type < 0.86 THEN 'refund' WHEN r_type < 0.91 THEN 'subscription_change'
                   WHEN r_type < 0.95 THEN 'agent_action' ELSE 'recurring_expense' END AS type,
              p.day - CASE WHEN r_day < 0.2 THEN floor(r_day * 30)::int ELSE 0 END AS day, p.day AS arrived_on
       FROM g
       CROSS JOIN LATERAL (SELECT $2::date - 729 + floor((n - $5::int) * 730.0 / ($6::int - $5::int + 1))::int AS day) p),
     sourced AS (
       SELECT t.*,
              CASE WHEN type = 'revenue' THEN CASE WHEN r_src < 0.7 THEN 'payments_a' WHEN r_src < 0.85 THEN 'manual_import' END
                   WHEN type = 'ad_spend' THEN CASE WHEN r_src < 0.6 THEN 'social_ads' ELSE 'search_ads' END
                   WHEN type = 'subscription_change' THEN 'billing_a'
                   WHEN type IN ('expense', 'refund', 'recurring_expense') AND r_src < 0.5 THEN 'manual_import' END AS provider
       FROM typed t),
     rows AS (
       SELECT s.*, b.id AS business_id, p.id AS project_id, i.id AS integration_id,
              CASE WHEN r_cur < 0.7 THEN coalesce(b.currency, 'USD')
                   ELSE (ARRAY['USD', 'EUR', 'GBP', 'CHF', 'JPY'])[1 + floor((r_cur - 0.7) / 0.3 * 5)::int] END AS currency,
              CASE WHEN s.provider IS NULL THEN 'MANUAL' WHEN s.provider = 'manual_import' THEN 'IMPORT'
                   WHEN s.provider = 'social_ads' THEN 'SOCIAL_ADS_API' WHEN s.provider = 'search_ads' THEN 'SEARCH_ADS_API'
                   ELSE 'PAYMENTS_API' END AS source_type,
              CASE WHEN s.provider IS NOT NULL THEN 'rb-' || s.n END AS external_id,
              CASE WHEN s.type = 'agent_action' OR (s.type = 'expense' AND s.r_src > 0.97)
                   THEN (SELECT id FROM agent WHERE agent.k = 1 + s.n % 2) END AS agent_id
       FROM sourced s
       LEFT JOIN biz b ON b.bk = s.bk
       LEFT JOIN proj p ON p.business_id = b.id AND p.k = 1 + floor(s.r_proj * p.c / 0.6)::int
       LEFT JOIN integ i ON i.provider = s.provider)
     INSERT INTO financial_events (id, owner_id, business_id, project_id, personal, type, state, status, amount_minor, currency,
                                   base_amount_minor, base_currency, fx_rate, fx_as_of, fx_source, occurred_on, category,
                                   description, source_type, integration_id, external_id, chain_external_id, provenance,
                                   confidence, payload, direction, reconciled, agent_id, uncounted_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, r.business_id, r.project_id, r.business_id IS NULL, r.type, 'actual',
            CASE WHEN r.r_flag < 0.01 THEN 'voided' ELSE 'confirmed' END, a.amount, r.currency,
            round(a.amount * fx.usd_rate * fx.scale)::bigint, 'USD', fx.usd_rate, r.day, 'mock', r.day,
            (ARRAY['sales', 'hosting', 'payroll', 'marketing', 'tools', 'travel', 'office', 'fees'])[1 + r.n % 8],
            r.type || ' ' || r.n, r.source_type, r.integration_id, r.external_id, r.external_id,
            jsonb_build_object('source', jsonb_build_object('type', r.source_type, 'integration_id', r.integration_id,
                                                            'external_id', r.external_id)),
            CASE WHEN r.source_type = 'IMPORT' THEN 0.9 ELSE 1 END,
            CASE WHEN r.type = 'ad_spend' THEN ${AD_SPEND_PAYLOAD_SQL}
                 WHEN r.type = 'subscription_change' THEN ${SAAS_PAYLOAD_SQL} ELSE '{}' END,
            CASE WHEN r.type = 'refund' THEN CASE WHEN r.r_src < 0.5 THEN 'in' ELSE 'out' END END,
            r.r_flag >= 0.01 AND r.r_flag < 0.03, r.agent_id,
            CASE WHEN r.r_flag < 0.03 THEN least(now(), c.at + interval '3 days') END, c.at, c.at
     FROM rows r
     JOIN ${USD_RATES_SQL} ON fx.currency = r.currency
     CROSS JOIN LATERAL (SELECT CASE WHEN r.currency = 'JPY' THEN 100 + floor(r.r_amt * r.r_amt * 300000)::bigint
                                     ELSE 100 + floor(r.r_amt * r.r_amt * 500000)::bigint END AS amount) a
     CROSS JOIN LATERAL (SELECT least(now(), r.arrived_on::timestamp AT TIME ZONE 'UTC' + r.r_sec * interval '1 day') AS at) c`,
    [ownerId, today, first, last, stream.first, stream.last],
  );
}

/**
 * Planned events of the past, one per 200 bulk events: most fulfilled by an actual expense
 * (excluded from commitments), a fifth voided. Answers the rows written.
 */
export async function seedPastPlanned(client: pg.Client, ownerId: string, today: string, count_: number): Promise<number> {
  return count(
    client,
    `WITH pick AS (SELECT array_agg(id) AS ids FROM (SELECT id FROM financial_events
                     WHERE owner_id = $1 AND type = 'expense' AND state = 'actual' LIMIT 5000) x)
     INSERT INTO financial_events (id, owner_id, business_id, personal, type, state, status, amount_minor, currency,
                                   occurred_on, category, description, source_type, provenance, confidence, payload,
                                   fulfilled_by_event_id, variance_minor, created_at, updated_at)
     SELECT gen_random_uuid(), $1, b.id, b.id IS NULL, 'planned_expense', 'planned',
            CASE WHEN n % 5 = 0 THEN 'voided' ELSE 'confirmed' END, 10000 + (n * 7919) % 500000, 'USD', d.day, 'planned',
            'Past plan ' || n, 'MANUAL', '{"source": {"type": "MANUAL"}}', 1, '{}',
            CASE WHEN n % 5 <> 0 THEN pick.ids[1 + n % cardinality(pick.ids)] END,
            CASE WHEN n % 5 <> 0 THEN (n % 200) - 100 END,
            d.day::timestamp AT TIME ZONE 'UTC' - interval '10 days', d.day::timestamp AT TIME ZONE 'UTC'
     FROM generate_series(1, $3::int) AS n
     CROSS JOIN pick
     CROSS JOIN LATERAL (SELECT $2::date - 61 - (n * 7919) % 669 AS day) d
     LEFT JOIN (SELECT id, row_number() OVER (ORDER BY name) AS bk FROM businesses WHERE owner_id = $1) b ON b.bk = 1 + n % 4`,
    [ownerId, today, count_],
  );
}
