import Link from "next/link";
import { BusinessHeader } from "@/components/businesses/business-header";
import { FiguresRefused } from "@/components/panel/figures-refused";
import { DateTime } from "@/components/panel/preferences";
import { PROJECTS_PAGE_SIZE } from "@/components/panel/page-size";
import { BusinessTabs } from "@/components/businesses/business-tabs";
import { BusinessOverview } from "@/components/overview/business-overview";
import { DisplayCurrencyForm } from "@/components/overview/display-currency-form";
import { parseDisplayCurrency, parseHorizon } from "@/components/overview/figures";
import { RecordCashForm } from "@/components/overview/record-cash-form";
import { CardSection } from "@/components/ui/card";
import { FormAlert } from "@/components/ui/field";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";
import { loadInDisplayCurrency } from "@/app/(panel)/display-currency";
import { ReportsTeaser } from "@/components/reports/reports-teaser";
import type { TProfitAndLoss } from "@/server/reports/report.schema";
import { loadFigures } from "@/app/(panel)/figures-refused";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata((caller, id) => caller.businesses.get({ id }), "Business");

/** How many recent alerts are searched for this business's (the owner's latest, newest first). */
const ALERTS_SEARCHED = 50;
const ALERTS_SHOWN = 10;

type TBusinessPageProps = TDetailPageProps & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function BusinessPage(props: TBusinessPageProps) {
  // Another owner's business and a malformed id alike are the not-found page.
  const {
    caller,
    id,
    record: business,
  } = await loadDetail(props, (owner, businessId) => owner.businesses.get({ id: businessId }));
  const params = await props.searchParams;
  const horizon = parseHorizon(params.horizon);
  const requested = parseDisplayCurrency(params.display_currency);
  const { base_currency: baseCurrency, locale } = await getOwnerMe();

  const [projects, alerts, loaded] = await Promise.all([
    caller.projects.find({ id, limit: PROJECTS_PAGE_SIZE }),
    caller.alerts.recent({ limit: ALERTS_SEARCHED }),
    loadInDisplayCurrency(requested, baseCurrency, (display_currency) =>
      loadFigures(async () => {
        const [summary, forecast, freeCapital, report] = await Promise.all([
          caller.readModels.businessFinancialSummary({ id, display_currency }),
          caller.readModels.businessForecast({ id, horizon, display_currency }),
          caller.readModels.freeCapital({ business_id: id, display_currency }),
          caller.reports.profitAndLoss({
            business_id: id,
            group_by: "type",
            interval: "month",
            format: "json",
            display_currency,
          }),
        ]);
        return { summary, forecast, freeCapital, report };
      }),
    ),
  ]);
  const figures = loaded.result;
  const query: Record<string, string> = requested ? { display_currency: loaded.currency } : {};

  return (
    <div className="page">
      <BusinessHeader
        business={business}
        actions={
          <>
            {business.status === "active" ? (
              // The event form opens with this business as its scope (components/events/default-scope.ts).
              <Link href={`/events?business=${business.id}`} className="button button-secondary">
                Record an expense
              </Link>
            ) : null}
            <DisplayCurrencyForm baseCurrency={baseCurrency} current={loaded.currency} keep={{ horizon: String(horizon) }} />
          </>
        }
      />
      <BusinessTabs businessId={business.id} current="" />
      {loaded.notice ? (
        <div className="page-notice">
          <FormAlert message={loaded.notice} />
        </div>
      ) : null}
      <div className="stack stack-fill">
        {figures.refused ? (
          <FiguresRefused refused={figures.refused} headingId="business-refused-heading" />
        ) : (
          <BusinessOverview
            figures={{
              summary: figures.result.summary.data,
              forecast: figures.result.forecast.data,
              freeCapital: figures.result.freeCapital.data,
              // The summary's envelope: how fresh this business's cash, revenue and expenses are.
              coverage: { overall: figures.result.summary.coverage.overall, cash: figures.result.summary.coverage.cash },
              alerts: alerts.data.filter((alert) => alert.business_id === id).slice(0, ALERTS_SHOWN),
            }}
            projects={new Map(projects.data.map((project) => [project.id, project.name]))}
            horizon={horizon}
            query={query}
          />
        )}
        {figures.refused ? null : (
          <ReportsTeaser
            report={figures.result.report.data as TProfitAndLoss}
            locale={locale ?? "en-US"}
            href={`/reports?scope=business:${business.id}${requested ? `&display_currency=${loaded.currency}` : ""}`}
            headingId="business-reports-heading"
          />
        )}
        <CardSection
          headingId="projects-heading"
          title="Projects"
          description="Split this business's money by client, product or campaign."
        >
          <div className="card-body">
            <p>
              <Link href={`/businesses/${business.id}/projects`}>Open the Projects tab</Link> to create, rename or archive
              projects and see how each one is doing.
            </p>
          </div>
        </CardSection>
        <div id="record-cash" className="anchor">
          <CardSection
            headingId="record-cash-heading"
            title="Record cash"
            description="A bank balance of this business as of now; cash, runway and free capital start from it."
          >
            <div className="card-body form-narrow">
              <RecordCashForm businessId={business.id} currency={business.currency} />
            </div>
          </CardSection>
        </div>
        <CardSection headingId="details-heading" title="Details">
          <dl className="details">
            <dt>Business ID</dt>
            <dd className="mono">{business.id}</dd>
            <dt>Reporting currency</dt>
            <dd>{business.currency}</dd>
            <dt>Created</dt>
            <dd>
              <DateTime iso={business.created_at} withTime />
            </dd>
            <dt>Last updated</dt>
            <dd>
              <DateTime iso={business.updated_at} withTime />
            </dd>
          </dl>
        </CardSection>
      </div>
    </div>
  );
}
