"use client";
// A business's Ads tab (GET /v1/businesses/{id}/ads): the period's totals (spend, impressions,
// clicks, CTR, CPC), the advertising signals of every account, then each ad account with its
// figures, its daily spend and its campaigns. Every figure is the API's; this only lays them out.
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import { CoveragePill } from "../overview/coverage-pill";
import { FigureList, type TFigure } from "../overview/figure-list";
import { formatCalendarDay, type TCoverageStatus } from "../overview/figures";
import { DateTime, usePreferences } from "../panel/preferences";
import { CardHeader } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { AlertIcon, PlugIcon } from "../ui/icons";
import { StatusPill } from "../ui/status-pill";
import {
  accountTitle,
  allSignals,
  formatCount,
  formatRatioPercent,
  signalSubject,
  signalText,
  type TAds,
  type TAdsAccount,
  type TPeriodErrors,
} from "./ads-words";
import { DailySpendChart } from "./daily-spend-chart";
import { PeriodForm } from "./period-form";
import { SeverityBadge } from "./severity-badge";

export function BusinessAds(props: {
  ads: TAds;
  coverage: TCoverageStatus;
  /** The period form: what was typed when the API refused it, and why. */
  period: { typed?: { from?: string; to?: string }; errors?: TPeriodErrors; keep: Record<string, string>; resetHref: string };
}) {
  const { locale } = usePreferences();
  const { ads } = props;
  const currency = ads.currency;
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const signals = allSignals(ads.accounts);

  return (
    <div className="stack stack-fill">
      <section aria-labelledby="ad-spend-heading" className="card">
        <CardHeader
          headingId="ad-spend-heading"
          title="Ad spend"
          description={`In ${currency}, ${formatCalendarDay(ads.from, locale)} to ${formatCalendarDay(ads.to, locale)}.`}
          wrap
        >
          <CoveragePill status={props.coverage} subject="Ads coverage" />
        </CardHeader>
        <div className="card-body">
          <PeriodForm from={ads.from} to={ads.to} {...props.period} />
        </div>
        <FigureList figures={totals(ads.totals, money, locale)} />
      </section>

      {ads.accounts.length === 0 ? (
        <section aria-labelledby="no-ads-heading" className="card">
          <CardHeader headingId="no-ads-heading" title="Ad accounts" />
          <EmptyState icon={<PlugIcon />} title="No ad spend in this period">
            Connect social_ads or search_ads, or send ad_spend events. <Link href="/integrations">Go to Integrations</Link>
          </EmptyState>
        </section>
      ) : (
        <>
          <section aria-labelledby="ad-signals-heading" className="card">
            <CardHeader
              headingId="ad-signals-heading"
              title="Signals"
              description="What the ad platforms reported in this period (paused or removed campaigns, budget limits, disapproved ads, suspended accounts), newest first."
            >
              {signals.length > 0 ? <span className="count">{signals.length}</span> : null}
            </CardHeader>
            {signals.length === 0 ? (
              <EmptyState icon={<AlertIcon />} title="No signals in this period">
                The ad platforms reported nothing about these accounts between these days.
              </EmptyState>
            ) : (
              <DataTable
                compact
                stack
                label="Signals (scrolls sideways)"
                items={signals.map((signal, index) => ({ ...signal, id: `${index}` }))}
                rowProps={(signal) => ({ "data-code": signal.code, "data-testid": "ad-signal" })}
                columns={[
                  { header: "Severity", cell: (signal) => <SeverityBadge severity={signal.severity} /> },
                  {
                    header: "Signal",
                    cell: (signal) => (
                      <>
                        <span className="cell-strong">{signalText(signal)}</span>
                        <span className="cell-sub">{signalSubject(signal.ref) ?? signal.code}</span>
                      </>
                    ),
                  },
                  { header: "Account", cell: (signal) => accountTitle(signal.account) },
                  {
                    header: "When",
                    headerClassName: "cell-right",
                    cellClassName: "cell-date cell-right",
                    cell: (signal) => <DateTime iso={signal.occurred_at} withTime />,
                  },
                ]}
              />
            )}
          </section>

          {ads.accounts.map((account, index) => (
            <AccountCard key={index} index={index} account={account} currency={currency} />
          ))}
        </>
      )}
    </div>
  );
}

function totals(figures: TAds["totals"], money: (minor: number | null) => string, locale: string): TFigure[] {
  return [
    { id: "ad-spend", label: "Spend", value: money(figures.spend_minor) },
    { id: "ad-impressions", label: "Impressions", value: formatCount(figures.impressions, locale) },
    { id: "ad-clicks", label: "Clicks", value: formatCount(figures.clicks, locale) },
    {
      id: "ad-ctr",
      label: "CTR",
      value: formatRatioPercent(figures.ctr, locale),
      detail: figures.ctr === null ? "No impressions." : "Clicks per impression.",
      tone: figures.ctr === null ? "muted" : undefined,
    },
    {
      id: "ad-cpc",
      label: "CPC",
      value: money(figures.cpc_minor),
      detail: figures.cpc_minor === null ? "No clicks." : "Spend per click.",
      tone: figures.cpc_minor === null ? "muted" : undefined,
    },
  ];
}

function AccountCard(props: { account: TAdsAccount; currency: string; index: number }) {
  const { locale } = usePreferences();
  const { account, currency } = props;
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const title = accountTitle(account);
  const headingId = `ad-account-${props.index}-heading`;
  return (
    <section aria-labelledby={headingId} className="card" data-testid="ad-account" data-account={account.account_id ?? ""}>
      <CardHeader
        headingId={headingId}
        title={title}
        description={`Spend in ${account.currencies.join(", ")}${account.integration_id === null ? "; sent without an integration" : ""}.`}
        wrap
      >
        {account.integration_status ? (
          <span title="The integration's status now">
            <span className="visually-hidden">Integration status: </span>
            <StatusPill status={account.integration_status} />
          </span>
        ) : null}
      </CardHeader>
      <FigureList
        figures={[
          { id: `account-spend`, label: "Spend", value: money(account.spend_minor) },
          { id: `account-impressions`, label: "Impressions", value: formatCount(account.impressions, locale) },
          { id: `account-clicks`, label: "Clicks", value: formatCount(account.clicks, locale) },
          {
            id: `account-ctr`,
            label: "CTR",
            value: formatRatioPercent(account.ctr, locale),
            tone: account.ctr === null ? "muted" : undefined,
          },
          {
            id: `account-cpc`,
            label: "CPC",
            value: money(account.cpc_minor),
            tone: account.cpc_minor === null ? "muted" : undefined,
          },
        ]}
      />
      <div className="card-body">
        <DailySpendChart
          days={account.daily}
          currency={currency}
          caption={`Daily spend of ${title} in ${currency}`}
          testId="daily-spend-chart"
        />
      </div>
      {account.campaigns.length === 0 ? (
        <EmptyState icon={<AlertIcon />} title="No campaigns named">
          This account&apos;s spend came without a campaign_id; it counts in the figures above.
        </EmptyState>
      ) : (
        <DataTable
          compact
          stack
          label={`Campaigns of ${title} (scrolls sideways)`}
          items={account.campaigns.map((campaign) => ({ ...campaign, id: campaign.campaign_id }))}
          rowProps={(campaign) => ({ "data-campaign": campaign.campaign_id, "data-testid": "ad-campaign" })}
          columns={[
            { header: "Campaign", cellClassName: "cell-strong mono", cell: (campaign) => campaign.campaign_id },
            {
              header: "Spend",
              headerClassName: "cell-right",
              cellClassName: "cell-right mono",
              cell: (campaign) => <span data-testid="campaign-spend">{money(campaign.spend_minor)}</span>,
            },
            {
              header: "Impressions",
              headerClassName: "cell-right",
              cellClassName: "cell-right mono",
              cell: (campaign) => formatCount(campaign.impressions, locale),
            },
            {
              header: "Clicks",
              headerClassName: "cell-right",
              cellClassName: "cell-right mono",
              cell: (campaign) => formatCount(campaign.clicks, locale),
            },
            {
              header: "Last signal",
              cell: (campaign) =>
                campaign.last_signal ? (
                  <>
                    <span>{signalText({ code: campaign.last_signal.code, message: null })}</span>
                    <span className="cell-sub">
                      <DateTime iso={campaign.last_signal.occurred_at} withTime />
                    </span>
                  </>
                ) : (
                  <span className="muted">None</span>
                ),
            },
          ]}
        />
      )}
      {account.budget_changes.length > 0 ? (
        <DataTable
          compact
          label={`Budget changes of ${title} (scrolls sideways)`}
          items={account.budget_changes}
          columns={[
            { header: "Budget change", cellClassName: "mono", cell: (change) => change.campaign_id },
            {
              header: "New daily budget",
              headerClassName: "cell-right",
              cellClassName: "cell-right mono",
              cell: (change) => formatMinor(change.new_daily_budget_minor, change.currency, locale),
            },
            { header: "From", cell: (change) => formatCalendarDay(change.effective_on, locale) },
            { header: "Status", cell: (change) => <StatusPill status={change.status} /> },
          ]}
        />
      ) : null}
    </section>
  );
}
