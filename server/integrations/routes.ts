// The integrations' plain routes (not JSON in and out): the Search Ads OAuth callback, which
// answers a redirect to the panel. It goes through the same REST layer as everything else.
import { z } from "zod";
import type { TOutcome } from "../rest/outcome";
import type { TPlainRoute } from "../rest/plain-route";
import { completeSearchAdsAuthorization, SEARCH_ADS_CALLBACK_PATH } from "./search-ads-oauth";

function redirect(location: string): TOutcome {
  return { status: 302, headers: { Location: location }, kind: "raw", body: "" };
}

const searchAdsCallback: TPlainRoute = {
  method: "GET",
  path: SEARCH_ADS_CALLBACK_PATH,
  // No bearer: the platform redirects the owner's browser here. The signed state is the credential.
  access: { kind: "public" },
  experimental: true,
  openapi: {
    operationId: "searchAdsOAuthCallback",
    tags: ["Integrations"],
    summary: "Search Ads OAuth callback",
    description:
      "Where Search Ads sends the owner's browser after the authorization that POST /v1/integrations/search_ads/connect " +
      "started. No bearer: the state (signed with HMAC-SHA256, valid 10 minutes, usable once) names the owner and the " +
      "pending integration. The code is exchanged for a refresh token, which is stored encrypted, and the integration " +
      "becomes active. Always answers 302 to the panel: /integrations?connected=search_ads on success; " +
      "?error=oauth_state_invalid for a missing, forged, expired or already used state (nothing is written); " +
      "?error=oauth_exchange_failed when the code cannot be exchanged; ?error=oauth_denied when the owner declined.",
    requestParams: {
      query: z.object({
        code: z.string().optional().describe("The authorization code."),
        state: z.string().optional().describe("The state issued with the authorize_url."),
        error: z.string().optional().describe("Set by the platform when the authorization did not happen (access_denied)."),
      }),
    },
    responses: {
      "302": {
        description: "Back to the panel's integrations page, with connected=search_ads or error=<reason>.",
        headers: {
          Location: {
            description: "The panel URL, e.g. {PUBLIC_BASE_URL}/integrations?connected=search_ads.",
            schema: { type: "string" },
          },
        },
      },
    },
  },
  handle: async ({ getDb, query, requestId }) => redirect(await completeSearchAdsAuthorization(await getDb(), query, requestId)),
};

export const integrationPlainRoutes: TPlainRoute[] = [searchAdsCallback];
