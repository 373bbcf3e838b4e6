// GET /oauth/authorize: the consent page of an assistant's OAuth request (pinned-wave3 §2.2). The
// panel's layout sends an owner who is not signed in to the sign-in page first (proxy.ts keeps
// this URL, and signing in comes back to it). A request that cannot be answered to its client (no
// such client, a redirect_uri it did not register) is explained here; other faults go back to the
// client as OAuth errors; a sound one shows the client's name and the grants to give.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConsentForm, type TConsentTemplate } from "@/components/oauth/consent-form";
import { PageHeader } from "@/components/panel/page-header";
import { CardSection } from "@/components/ui/card";
import { FormAlert } from "@/components/ui/field";
import { getDatabase } from "@/server/db/client";
import { ZAuthorizeParams } from "@/server/oauth/oauth.schema";
import { checkAuthorizeRequest, refusalRedirect } from "@/server/oauth/oauth-service";
import { listPassportTemplates } from "@/server/passports/passport-service";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";
import { loadGrantResources } from "../../agents/grant-resources";

export const metadata: Metadata = { title: "Connect an assistant" };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

/** The template preselected: the first whose suggestions cover the scopes asked for, else the read-only bookkeeper. */
function initialTemplate(templates: TConsentTemplate[], scope: string): string {
  const asked = scope.split(/\s+/).filter(Boolean);
  if (asked.length === 0) return "bookkeeper";
  const covering = templates.find((template) => asked.every((item) => template.grants.some((grant) => grant.scope === item)));
  return covering?.id ?? "bookkeeper";
}

export default async function AuthorizePage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const me = await getOwnerMe();
  const raw = await searchParams;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const parsed = ZAuthorizeParams.safeParse(Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, first(value)])));
  const check = parsed.success
    ? await checkAuthorizeRequest((await getDatabase()).prisma, parsed.data)
    : ({ ok: false, kind: "page", message: "The authorization request's parameters are too long." } as const);
  if (!check.ok && check.kind === "redirect") redirect(check.redirectTo);

  if (!check.ok) {
    return (
      <div className="page">
        <PageHeader title="Connect an assistant" lead="This request cannot be answered." />
        <div className="card">
          <div className="card-body">
            <FormAlert message={check.message} />
            <p className="muted">Start the connection again from the assistant.</p>
          </div>
        </div>
      </div>
    );
  }

  const { request } = check;
  const templates: TConsentTemplate[] = listPassportTemplates().map((template) => ({
    id: template.id,
    name: template.name,
    description: template.description,
    grants: template.suggested_grants.map((grant) => ({ ...grant, resource: "*" })),
  }));
  const resources = await loadGrantResources(await getOwnerCaller());
  const host = new URL(request.redirectUri).host;

  return (
    <div className="page">
      <PageHeader
        title={`Connect ${request.client.name}`}
        lead={
          <>
            <strong data-testid="consent-client-name">{request.client.name}</strong> asks to act for you as an agent. It will send
            you back to <span className="mono">{host}</span>. Give it only what it needs; you can change or revoke it on the
            Agents page at any time.
          </>
        }
      />
      <CardSection
        headingId="consent-heading"
        title="What this assistant may do"
        description="A new agent is created with these grants. Recommend means you approve each action; execute acts within the limits."
      >
        <div className="card-body">
          <ConsentForm
            clientName={request.client.name}
            request={{
              client_id: request.client.clientId,
              redirect_uri: request.redirectUri,
              code_challenge: request.codeChallenge,
              state: request.state,
              resource: request.resource,
              scope: request.scope || undefined,
            }}
            templates={templates}
            initialTemplate={initialTemplate(templates, request.scope)}
            refuseHref={refusalRedirect(request)}
            resources={resources}
            defaultCurrency={me.base_currency}
          />
        </div>
      </CardSection>
    </div>
  );
}
