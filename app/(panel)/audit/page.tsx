import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { auditFiltersFrom } from "@/components/audit/audit-labels";
import { PageHeader } from "@/components/panel/page-header";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

export default async function AuditPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const params = await searchParams;
  return (
    <div className="page">
      <PageHeader
        title="Audit log"
        lead="Every write, denial and decision in your books: who did it, what changed, and when. Nothing here can be edited."
      />
      <AuditView initialFilters={auditFiltersFrom(params)} />
    </div>
  );
}
