import type { Metadata } from "next";
import { DisplayCurrencyForm } from "@/components/overview/display-currency-form";
import { FirstBusiness, FirstRunQuestions } from "@/components/overview/first-run";
import { parseDisplayCurrency } from "@/components/overview/figures";
import { OverviewView, type TOverviewBusinessRow } from "@/components/overview/overview-view";
import { FiguresRefused } from "@/components/panel/figures-refused";
import { PageHeader } from "@/components/panel/page-header";
import { ReportsTeaser } from "@/components/reports/reports-teaser";
import { localeOptions, timeZoneGroups } from "@/components/settings/settings-options";
import { FormAlert } from "@/components/ui/field";
import type { TProfitAndLoss } from "@/server/reports/report.schema";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";
import { loadInDisplayCurrency } from "../display-currency";
import { loadFigures } from "../figures-refused";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

export default async function OverviewPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const [caller, me, params] = await Promise.all([getOwnerCaller(), getOwnerMe(), searchParams]);
  const requested = parseDisplayCurrency(params.display_currency);

  // The overview and each business's summary (its runway, when its cash is as of and how well
  // that cash is covered), all in one display currency: the same one for every figure on the page.
  const loaded = await loadInDisplayCurrency(requested, me.base_currency, (display_currency) =>
    loadFigures(async () => {
      const overview = await caller.readModels.overview({ display_currency });
      const [summaries, report, events] = await Promise.all([
        Promise.all(
          overview.data.businesses.map((business) =>
            caller.readModels.businessFinancialSummary({ id: business.business_id, display_currency }),
          ),
        ),
        caller.reports.profitAndLoss({ group_by: "type", interval: "month", format: "json", display_currency }),
        // Get started's third step ticks on any event at all (components/overview/getting-started.tsx).
        caller.ledger.findEvents({ limit: 1 }),
      ]);
      return { overview, summaries, report, hasEvents: events.data.length > 0 };
    }),
  );
  const notice = loaded.notice ? (
    <div className="page-notice">
      <FormAlert message={loaded.notice} />
    </div>
  ) : null;
  const lead = "Cash, runway and what is committed, across your businesses.";
  if (loaded.result.refused) {
    return (
      <div className="page">
        <PageHeader
          title="Overview"
          lead={lead}
          actions={<DisplayCurrencyForm baseCurrency={me.base_currency} current={loaded.currency} />}
        />
        {notice}
        <FiguresRefused refused={loaded.result.refused} headingId="overview-refused-heading" />
      </div>
    );
  }
  const { overview, summaries, report, hasEvents } = loaded.result.result;

  const rows: TOverviewBusinessRow[] = overview.data.businesses.map((business, index) => {
    const summary = summaries[index]!;
    return { ...business, cash: summary.data.cash, runway: summary.data.runway, cash_coverage: summary.coverage.cash };
  });

  // The first run: the questions until they are answered, then the first business until there is one.
  const firstRun = !me.onboarding.base_currency_confirmed ? (
    <FirstRunQuestions
      current={{ base_currency: me.base_currency, timezone: me.timezone, locale: me.locale }}
      zones={timeZoneGroups(me.timezone)}
      locales={localeOptions(me.locale)}
    />
  ) : overview.data.businesses.length === 0 ? (
    <FirstBusiness baseCurrency={me.base_currency} />
  ) : null;

  return (
    <div className="page">
      <PageHeader
        title="Overview"
        lead={lead}
        actions={<DisplayCurrencyForm baseCurrency={overview.data.base_currency} current={overview.data.currency} />}
      />
      {notice}
      {firstRun ? <div className="page-notice">{firstRun}</div> : null}
      <OverviewView
        overview={overview.data}
        businesses={rows}
        coverage={{ overall: overview.coverage.overall, cash: overview.coverage.cash }}
        hasEvents={hasEvents}
      />
      <ReportsTeaser
        report={report.data as TProfitAndLoss}
        locale={me.locale ?? "en-US"}
        href={`/reports${loaded.currency === me.base_currency ? "" : `?display_currency=${loaded.currency}`}`}
        headingId="overview-reports-heading"
      />
    </div>
  );
}
