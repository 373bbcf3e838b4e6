import { FiguresRefused } from "@/components/panel/figures-refused";
import { BackLink, PageHeader } from "@/components/panel/page-header";
import { BusinessAds } from "@/components/ads/business-ads";
import { parsePeriodParam, periodErrors, type TPeriodErrors } from "@/components/ads/ads-words";
import { BusinessTabs } from "@/components/businesses/business-tabs";
import { DisplayCurrencyForm } from "@/components/overview/display-currency-form";
import { parseDisplayCurrency } from "@/components/overview/figures";
import { StatusPill } from "@/components/ui/status-pill";
import { FormAlert } from "@/components/ui/field";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";
import { loadInDisplayCurrency } from "@/app/(panel)/display-currency";
import { loadFigures } from "@/app/(panel)/figures-refused";
import { toAppError } from "@/server/errors/to-app-error";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata(async (caller, id) => {
  const business = await caller.businesses.get({ id });
  return { data: { name: `Ads · ${business.data.name}` } };
}, "Ads");

type TAdsPageProps = TDetailPageProps & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function BusinessAdsPage(props: TAdsPageProps) {
  // Another owner's business and a malformed id alike are the not-found page.
  const {
    caller,
    id,
    record: business,
  } = await loadDetail(props, (owner, businessId) => owner.businesses.get({ id: businessId }));
  const params = await props.searchParams;
  const requested = parseDisplayCurrency(params.display_currency);
  const typed = { from: parsePeriodParam(params.from), to: parsePeriodParam(params.to) };
  const { base_currency: baseCurrency } = await getOwnerMe();

  const load = (period: { from?: string; to?: string }) =>
    loadInDisplayCurrency(requested, baseCurrency, (display_currency) =>
      loadFigures(() => caller.readModels.businessAds({ id, ...period, display_currency })),
    );
  // A period the API refuses (reversed, too long, not a day): its reasons on the form's fields,
  // and the default period shown meanwhile.
  let errors: TPeriodErrors | undefined;
  let loaded;
  try {
    loaded = await load(typed);
  } catch (error) {
    const appError = toAppError(error);
    const issues = (appError.details as { issues?: Array<{ path: string; message: string }> } | undefined)?.issues ?? [];
    errors = periodErrors(issues);
    if (appError.code !== "validation_error" || (!errors.from && !errors.to)) throw error;
    loaded = await load({});
  }
  const { result: ads, refused } = loaded.result;
  const keepCurrency: Record<string, string> = requested ? { display_currency: loaded.currency } : {};
  const keepPeriod: Record<string, string> =
    errors || !ads || (!typed.from && !typed.to) ? {} : { from: ads.data.from, to: ads.data.to };
  const resetQuery = new URLSearchParams(keepCurrency).toString();

  return (
    <div className="page">
      <BackLink href="/businesses">Businesses</BackLink>
      <PageHeader
        title={business.name}
        meta={
          <>
            <span className="badge" title="Reporting currency">
              {business.currency}
            </span>
            {business.status === "archived" ? <StatusPill status="archived" /> : null}
          </>
        }
        actions={<DisplayCurrencyForm baseCurrency={baseCurrency} current={loaded.currency} keep={keepPeriod} />}
      />
      <BusinessTabs businessId={business.id} current="ads" />
      {loaded.notice ? (
        <div className="page-notice">
          <FormAlert message={loaded.notice} />
        </div>
      ) : null}
      {refused ? (
        <FiguresRefused refused={refused} headingId="ads-refused-heading" />
      ) : (
        <BusinessAds
          ads={ads.data}
          coverage={ads.coverage.ads}
          period={{
            typed,
            errors,
            keep: keepCurrency,
            resetHref: `/businesses/${business.id}/ads${resetQuery ? `?${resetQuery}` : ""}`,
          }}
        />
      )}
    </div>
  );
}
