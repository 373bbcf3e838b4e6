import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/panel/page-header";
import { DateTime } from "@/components/panel/preferences";
import { CardHeader, CardSection } from "@/components/ui/card";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const me = await getOwnerMe();

  return (
    <div className="page">
      <PageHeader title="Settings" lead="Your profile as the service knows it." />
      <div className="stack">
        <CardSection
          headingId="profile-heading"
          title="Profile"
          description="Read-only here for now; the API changes these (PATCH /v1/me)."
        >
          <dl className="details">
            <dt>Email</dt>
            <dd>{me.email}</dd>
            <dt>Name</dt>
            <dd>{me.name || <span className="muted">Not set</span>}</dd>
            <dt>Base currency</dt>
            <dd>
              <span className="badge">{me.base_currency}</span>{" "}
              {me.onboarding.base_currency_confirmed ? null : <span className="muted">(default, not yet confirmed)</span>}
            </dd>
            <dt>Time zone</dt>
            <dd>{me.timezone}</dd>
            <dt>Locale</dt>
            <dd>{me.locale}</dd>
            <dt>Plan</dt>
            <dd>
              <span style={{ textTransform: "capitalize" }}>{me.plan}</span> <span className="muted">({me.plan_status})</span>
            </dd>
            <dt>Member since</dt>
            <dd>
              <DateTime iso={me.created_at} />
            </dd>
            <dt>Owner ID</dt>
            <dd className="mono">{me.id}</dd>
          </dl>
        </CardSection>
        <section className="card" aria-labelledby="security-heading">
          <CardHeader
            headingId="security-heading"
            title="Sign-in and sessions"
            description={
              <>You sign in with a one-time link mailed to {me.email}. See every device and API client signed in as you.</>
            }
          >
            <Link href="/settings/sessions" className="button button-secondary">
              Manage sessions
            </Link>
          </CardHeader>
        </section>
      </div>
    </div>
  );
}
