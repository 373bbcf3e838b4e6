import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZIntegration, ZSigningSecret } from "./integration.schema";

export const replaceSigningSecretMeta: TProcedureMeta = {
  openapi: {
    method: "PUT",
    path: "/v1/integrations/{id}/signing-secret",
    tags: ["Integrations"],
    summary: "Replace a provider connection's signing secret",
    description:
      "For a payments_a, social_ads, billing_a or billing_b connection: stores the secret the platform now signs the " +
      "account's deliveries with (after the platform rotated it, or for a connection made before connect asked for it). " +
      "From then on a delivery reaches this connection only when its signature verifies with the new secret; a platform " +
      "that signs with the old and the new secret together during its rotation is accepted throughout. Stored encrypted " +
      "and never answered: the answer is the integration. Another owner's: 404. Another provider (generic, search_ads, " +
      "a bank, manual_import) or a connection that is not active (connect it again with its secret): 409 state_conflict. " +
      "Audited (integration.signing_secret_replaced, without the secret). Allowed after a trial ended, like sync: it " +
      "keeps deliveries flowing. Additive (issue 32).",
  },
  planExpiry: "exempt",
};
export const ZReplaceSigningSecretInput = z
  .object({
    signing_secret: ZSigningSecret.describe(
      "The secret the platform signs this account's deliveries with (CatalogEntry.signing_secret_location says where it is shown).",
    ),
  })
  .meta({ id: "ReplaceSigningSecretInput" });
export const ZReplaceSigningSecretRequest = ZIdParam.extend(ZReplaceSigningSecretInput.shape);
export const ZReplaceSigningSecretResponse = z.object({ data: ZIntegration });
