import { BusinessHeader } from "@/components/businesses/business-header";
import { BusinessTabs } from "@/components/businesses/business-tabs";
import { DisplayCurrencyForm } from "@/components/overview/display-currency-form";
import { parseDisplayCurrency } from "@/components/overview/figures";
import { parseSaasPeriod, periodQuery, presetRange, type TSaasPeriod } from "@/components/saas/period";
import { PeriodPicker } from "@/components/saas/period-picker";
import { SaasView } from "@/components/saas/saas-view";
import { FiguresRefused } from "@/components/panel/figures-refused";
import { FormAlert } from "@/components/ui/field";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";
import { loadInDisplayCurrency } from "@/app/(panel)/display-currency";
import { loadFigures } from "@/app/(panel)/figures-refused";
import { addDays, timeZoneOrUtc, todayIn } from "@/lib/days";
import { toAppError } from "@/server/errors/to-app-error";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata(async (caller, id) => {
  const business = await caller.businesses.get({ id });
  return { data: { name: `SaaS · ${business.data.name}` } };
}, "SaaS");

type TSaasPageProps = TDetailPageProps & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function BusinessSaasPage(props: TSaasPageProps) {
  // Another owner's business and a malformed id alike are the not-found page.
  const {
    caller,
    id,
    record: business,
  } = await loadDetail(props, (owner, businessId) => owner.businesses.get({ id: businessId }));
  const params = await props.searchParams;
  const me = await getOwnerMe();
  const today = todayIn(timeZoneOrUtc(me.timezone));
  const requested = parseDisplayCurrency(params.display_currency);

  const load = (period: TSaasPeriod) =>
    loadInDisplayCurrency(requested, me.base_currency, (display_currency) =>
      loadFigures(() => caller.readModels.businessSaasMetrics({ id, from: period.from, to: period.to, display_currency })),
    );
  let period = parseSaasPeriod(params, today);
  let periodNotice: string | null = null;
  let loaded;
  try {
    loaded = await load(period);
  } catch (error) {
    // A range of one's own the API refuses (to before from, over 366 days): say why, show the default.
    const appError = toAppError(error);
    if (period.kind !== "custom" || appError.code !== "validation_error") throw error;
    periodNotice = `That period cannot be shown (${appError.message.replace(/\.$/, "")}), so this is the last 30 days.`;
    period = { kind: "preset", id: "30d", ...presetRange("30d", today) };
    loaded = await load(period);
  }
  const { result: metrics, refused } = loaded.result;
  // The days asked for, as the API resolves a missing end (K1): shown when the figures are refused.
  const askedTo = period.to ?? today;
  const asked = { from: period.from ?? addDays(askedTo, -29), to: askedTo };
  const keepCurrency: Record<string, string> = requested ? { display_currency: loaded.currency } : {};
  const notices = [periodNotice, loaded.notice].filter((notice): notice is string => notice !== null);

  return (
    <div className="page">
      <BusinessHeader
        business={business}
        actions={<DisplayCurrencyForm baseCurrency={me.base_currency} current={loaded.currency} keep={periodQuery(period)} />}
      />
      <BusinessTabs businessId={business.id} current="saas" />
      {notices.map((notice) => (
        <div key={notice} className="page-notice">
          <FormAlert message={notice} />
        </div>
      ))}
      <div className="stack stack-fill">
        <PeriodPicker
          period={period}
          shown={metrics ? { from: metrics.data.from, to: metrics.data.to } : asked}
          keep={keepCurrency}
        />
        {refused ? (
          <FiguresRefused refused={refused} headingId="saas-refused-heading" />
        ) : (
          <SaasView metrics={metrics.data} coverage={{ overall: metrics.coverage.overall, billing: metrics.coverage.billing }} />
        )}
      </div>
    </div>
  );
}
