"use client";
// The Integrations page: the catalog of providers, connecting a generic signed webhook (its
// secret shown once) or a provider account, the owner's connections with their last sync and a
// Sync button, and the recent alerts.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { CardSection } from "../ui/card";
import { AlertsCard } from "./alerts-card";
import { CatalogCard } from "./catalog-card";
import { isAccountProvider } from "./catalog";
import { ConnectAccountForm } from "./connect-account-form";
import { ConnectGenericForm } from "./connect-generic-form";
import { ConnectionsCard } from "./connections-card";
import { useBusinesses } from "./use-businesses";

const ALERTS_LIMIT = 20;

export function IntegrationsView() {
  const trpc = useTRPC();
  const catalog = useQuery(trpc.integrations.catalog.queryOptions({}));
  const alerts = useQuery(trpc.alerts.recent.queryOptions({ limit: ALERTS_LIMIT }));
  const { businesses, all: allBusinesses, isPending: loadingBusinesses } = useBusinesses();
  const entries = catalog.data?.data ?? [];
  const accountProviders = entries.filter(isAccountProvider);

  return (
    <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
      <CatalogCard entries={entries} isPending={catalog.isPending} isError={catalog.isError} />

      <div className="grid-2">
        <CardSection
          headingId="connect-generic-heading"
          title="Connect generic webhook"
          description="Any system that signs its JSON with HMAC-SHA256 can send events and signals."
        >
          <div className="card-body">
            <ConnectGenericForm businesses={businesses} loadingBusinesses={loadingBusinesses} />
          </div>
        </CardSection>
        <CardSection
          headingId="connect-account-heading"
          title="Connect a provider account"
          description="Payments, ads and billing: the webhooks your account signs land on the business you choose."
        >
          <div className="card-body">
            <ConnectAccountForm
              providers={accountProviders}
              loadingProviders={catalog.isPending}
              businesses={businesses}
              loadingBusinesses={loadingBusinesses}
            />
          </div>
        </CardSection>
      </div>

      <ConnectionsCard catalog={entries} businesses={allBusinesses} />

      <AlertsCard alerts={alerts.data?.data ?? []} isPending={alerts.isPending} isError={alerts.isError} limit={ALERTS_LIMIT} />
    </div>
  );
}
