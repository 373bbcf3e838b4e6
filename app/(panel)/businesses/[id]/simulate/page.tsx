// A business's "What if" tab: try changes (cancel one of its subscriptions, move an ad budget,
// add a cost or revenue) and compare its forecast before and after (POST /v1/simulations).
// The page loads what the form offers: the business's active subscriptions and its ad accounts.
import { BusinessHeader } from "@/components/businesses/business-header";
import { BusinessTabs } from "@/components/businesses/business-tabs";
import { SimulateView } from "@/components/simulations/simulate-view";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";
import { timeZoneOrUtc, todayIn } from "@/lib/days";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata(async (caller, id) => {
  const business = await caller.businesses.get({ id });
  return { data: { name: `What if · ${business.data.name}` } };
}, "What if");

/** Ad integrations: the ones whose budget a simulation can move. */
const AD_PROVIDERS = new Set(["social_ads", "search_ads"]);
/** The most subscriptions and integrations offered (one page each). */
const LISTED = 200;

export default async function BusinessSimulatePage(props: TDetailPageProps) {
  // Another owner's business and a malformed id alike are the not-found page.
  const {
    caller,
    id,
    record: business,
  } = await loadDetail(props, (owner, businessId) => owner.businesses.get({ id: businessId }));
  const [me, subscriptions, integrations] = await Promise.all([
    getOwnerMe(),
    caller.subscriptions.findForBusiness({ id, limit: LISTED }),
    caller.integrations.list({ business_id: id, limit: LISTED }),
  ]);

  return (
    <div className="page">
      <BusinessHeader business={business} />
      <BusinessTabs businessId={business.id} current="simulate" />
      <div className="stack stack-fill">
        <SimulateView
          businessId={business.id}
          today={todayIn(timeZoneOrUtc(me.timezone))}
          defaultCurrency={business.currency}
          subscriptions={subscriptions.data
            .filter((subscription) => subscription.status === "active")
            .map(({ id: subscriptionId, name, amount_minor, currency, billing_interval }) => ({
              id: subscriptionId,
              name,
              amount_minor,
              currency,
              billing_interval,
            }))}
          adAccounts={integrations.data
            .filter((integration) => AD_PROVIDERS.has(integration.provider) && integration.status !== "disconnected")
            .map(({ id: integrationId, name, provider }) => ({ id: integrationId, name, provider }))}
        />
      </div>
    </div>
  );
}
