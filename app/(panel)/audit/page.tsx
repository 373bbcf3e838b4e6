import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { PageHeader } from "@/components/panel/page-header";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

export default function AuditPage() {
  return (
    <div className="page">
      <PageHeader
        title="Audit log"
        lead="Every write, denial and decision in your books: who did it, what changed, and when. Nothing here can be edited."
      />
      <AuditView />
    </div>
  );
}
