// The owner's side, once: a business, an ad account connected to it, and an agent whose grants
// say what it may do there. The agent's token (agt_…) is in this answer only (and on rotate):
// hand it to the agent's host as a secret.
//
//   FINANCE_URL=http://localhost:3000 FINANCE_OWNER_TOKEN=ses_… SOCIAL_ADS_SIGNING_SECRET=… \
//     npx tsx docs/examples/owner-setup.ts
import { createFinanceClient, idempotent, unwrap } from "../../client";
import { runAsScript, setting } from "./run-as-script.js";

export async function ownerSetup(config: {
  baseUrl: string;
  ownerToken: string;
  /** The ad account's signing secret, as its platform shows it. */
  socialAdsSigningSecret: string;
  businessName?: string;
}) {
  const owner = createFinanceClient({ baseUrl: config.baseUrl, token: config.ownerToken });

  const business = await unwrap(
    owner.POST("/v1/businesses", {
      params: { header: idempotent() },
      body: { name: config.businessName ?? "Atlas", currency: "EUR" },
    }),
  );
  const businessId = business.data.id;

  // The ad platform is a mock in this version: connect records the account as active. The signing
  // secret is the one the platform shows for the account (its app settings); the platform signs
  // the account's deliveries with it, and only a connection whose secret verifies receives them.
  const social = await unwrap(
    owner.POST("/v1/integrations/{provider}/connect", {
      params: { header: idempotent(), path: { provider: "social_ads" } },
      body: {
        business_id: businessId,
        account_id: `act_${Date.now()}`,
        signing_secret: config.socialAdsSigningSecret,
      },
    }),
  );

  const agent = await unwrap(
    owner.POST("/v1/agents", {
      params: { header: idempotent() },
      body: {
        name: "Ads optimizer",
        grants: [
          // Budget changes on this business run on their own up to 100.00 EUR a day (UTC day);
          // above that they wait for the owner (over_limit: "deny" would refuse them with 403).
          {
            scope: "ads",
            resource: `business:${businessId}`,
            level: "execute",
            daily_limit_minor: 100_00,
            currency: "EUR",
            over_limit: "approval",
          },
          // Reading this business's figures (SaaS metrics, exchange rates); recommend = read only here.
          { scope: "finances:observe", resource: `business:${businessId}`, level: "recommend", over_limit: "approval" },
        ],
      },
    }),
  );

  return {
    businessId,
    integrationId: social.data.id,
    agentId: agent.data.id,
    agentToken: agent.data.token,
  };
}

runAsScript(import.meta.url, () =>
  ownerSetup({
    baseUrl: setting("FINANCE_URL"),
    ownerToken: setting("FINANCE_OWNER_TOKEN"),
    socialAdsSigningSecret: setting("SOCIAL_ADS_SIGNING_SECRET"),
  }),
);
