import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/panel/page-header";
import { DateTime } from "@/components/panel/preferences";
import { DeliveryLog } from "@/components/settings/delivery-log";
import { NotificationPreferencesForm } from "@/components/settings/notification-preferences-form";
import { NotificationWebhook } from "@/components/settings/notification-webhook";
import { PlanSection } from "@/components/settings/plan-section";
import { ProfileForm } from "@/components/settings/profile-form";
import { localeOptions, timeZoneGroups } from "@/components/settings/settings-options";
import { CardHeader, CardSection } from "@/components/ui/card";
import { PLAN_NAMES } from "@/server/plans/plan-limits";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const me = await getOwnerMe();
  const caller = await getOwnerCaller();
  const { data: notificationPreferences } = await caller.notifications.getPreferences({});
  const { data: plan } = await caller.plans.get({});
  const previews = await Promise.all(
    PLAN_NAMES.filter((name) => name !== plan.plan).map(async (to) => (await caller.plans.upgradePreview({ to })).data),
  );

  return (
    <div className="page">
      <PageHeader
        title="Settings"
        lead="Your profile, how dates and amounts read, the currency your books are kept in, where notifications go, and your plan."
      />
      <div className="stack">
        <CardSection
          headingId="profile-heading"
          title="Profile and preferences"
          description={
            me.onboarding.base_currency_confirmed
              ? "Changes apply to the panel and the API (PATCH /v1/me) at once."
              : `Your base currency is ${me.base_currency} by default and not confirmed yet: choose it before you record much.`
          }
        >
          <div className="card-body">
            <ProfileForm
              initial={{ name: me.name, timezone: me.timezone, locale: me.locale, base_currency: me.base_currency }}
              zones={timeZoneGroups(me.timezone)}
              locales={localeOptions(me.locale)}
            />
          </div>
        </CardSection>
        <CardSection
          headingId="notification-preferences-heading"
          title="Notifications"
          description="Where notifications are sent besides the panel, from which severity, and what is not worth one."
        >
          <div className="card-body">
            <NotificationPreferencesForm initial={notificationPreferences} ownerEmail={me.email} />
          </div>
        </CardSection>
        <CardSection
          headingId="notification-webhook-heading"
          title="Notification webhook"
          description="Your own system receives notifications as signed POSTs (PUT /v1/me/notification-webhook in the API)."
        >
          <NotificationWebhook initial={notificationPreferences.webhook} />
        </CardSection>
        <DeliveryLog />
        <CardSection
          headingId="plan-heading"
          title="Plan"
          description="What your plan allows and what you use of it; each other plan with what a switch would do."
        >
          <PlanSection plan={plan} previews={previews} />
        </CardSection>
        <CardSection headingId="account-heading" title="Account">
          <dl className="details">
            <dt>Email</dt>
            <dd>{me.email}</dd>
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
            wrap
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
