import { z } from "zod";
import { ZTimestamp, ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCoverageStatus } from "./read-model.schema";

export const getCoverageMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/coverage",
    tags: ["Read models"],
    summary: "How fresh the owner's data is, per domain",
    description:
      "Coverage statuses, best to worst: accurate, mostly_covered, incomplete, missing. A source's age is now − its time " +
      "(a future time counts as 0). A real snapshot (as_of) or an active integration (last_sync_at): accurate under 24 h, " +
      "mostly_covered under 72 h, incomplete up to 7 days, then missing. A confirmed bank import (confirmed_at) or a manual " +
      "snapshot (as_of): mostly_covered under 24 h, incomplete up to 7 days, then missing. Manual or imported entries only " +
      "(the newest created_at): incomplete up to 7 days, then missing. Domains (active integrations only): cash = " +
      "snapshots and imports; revenue = payments_a, billing_a/billing_b, generic integrations that sent revenue, manual " +
      "or imported revenue; ads = social_ads, search_ads; billing = billing_a/billing_b; expenses = imports, generic " +
      "integrations that sent out events, manual expenses. A domain takes its best source; personal has cash, revenue " +
      "and expenses. A scope's overall is its worst domain with a source, else missing. At owner level a domain is the " +
      "worst scope with a source in it (an integration of no business counts there only); overall is the worst domain " +
      "with a source, else missing. Snapshots count whatever their integration's state; an active integration never " +
      "synced is a source with status missing.",
  },
};

export const ZCoverageSource = z
  .object({
    kind: z.enum(["snapshot", "import", "integration", "manual"]),
    integration_id: ZUuid.nullable().describe("The integration (integrations, and real snapshots)."),
    provider: z.string().nullable(),
    at: ZTimestamp.nullable().describe("The source's time: as_of, confirmed_at, last_sync_at or the newest created_at."),
    status: ZCoverageStatus,
  })
  .meta({ id: "CoverageSource" });

export const ZDomainCoverage = z
  .object({
    status: ZCoverageStatus.describe("The best of its sources; missing without one."),
    last_data_at: ZTimestamp.nullable().describe("The newest time among its sources."),
    sources: z.array(ZCoverageSource),
  })
  .meta({ id: "DomainCoverage" });

const ZAllDomains = z.object({
  cash: ZDomainCoverage,
  revenue: ZDomainCoverage,
  ads: ZDomainCoverage,
  billing: ZDomainCoverage,
  expenses: ZDomainCoverage,
});

export const ZCoverageReport = z
  .object({
    as_of: ZTimestamp.describe("The instant the statuses are computed at."),
    overall: ZCoverageStatus,
    domains: ZAllDomains,
    businesses: z.array(z.object({ business_id: ZUuid, name: z.string(), overall: ZCoverageStatus, domains: ZAllDomains })),
    personal: z.object({
      overall: ZCoverageStatus,
      domains: z.object({ cash: ZDomainCoverage, revenue: ZDomainCoverage, expenses: ZDomainCoverage }),
    }),
  })
  .meta({ id: "CoverageReport" });

export const ZGetCoverageRequest = z.object({});
export const ZGetCoverageResponse = z.object({ data: ZCoverageReport });
