import type { Metadata } from "next";
import { ImportHistory } from "@/components/imports/import-history";
import { ImportsWizard } from "@/components/imports/imports-wizard";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Imports" };
export const dynamic = "force-dynamic";

export default async function ImportsPage() {
  // Owners only: anyone else goes to the sign-in page before anything renders.
  await getOwnerMe();
  return (
    <div className="page">
      <PageHeader
        title="Imports"
        lead="Bring a bank statement into your books: preview every row, spot recurring charges, then confirm. A wrong import can be reverted from its history."
      />
      <div className="stack" style={{ minWidth: 0, gridTemplateColumns: "minmax(0, 1fr)" }}>
        <ImportsWizard />
        <ImportHistory />
      </div>
    </div>
  );
}
