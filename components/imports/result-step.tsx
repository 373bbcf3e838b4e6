"use client";
// Step 4: what the confirm wrote, with the way to the events and subscriptions it created.
import Link from "next/link";
import type { TImportResult } from "@/server/imports/import.schema";
import { CardHeader } from "../ui/card";

export function ResultStep(props: { result: TImportResult; businessName: string; onAnother: () => void }) {
  const { result } = props;
  const created = result.subscriptions_created.length;
  return (
    <section className="card" aria-labelledby="import-result-heading">
      <CardHeader
        headingId="import-result-heading"
        title="Import complete"
        description={
          <>
            The statement is booked for <strong>{props.businessName}</strong>.
          </>
        }
      >
        <span className="pill pill-success">confirmed</span>
      </CardHeader>
      <dl className="import-stats" aria-label="Import result">
        <div className="import-stat">
          <dt>Inserted</dt>
          <dd data-testid="import-inserted">{result.inserted}</dd>
        </div>
        <div className={result.deduped ? "import-stat" : "import-stat import-stat-muted"}>
          <dt>Deduped</dt>
          <dd data-testid="import-deduped">{result.deduped}</dd>
        </div>
        <div className={result.rejected.length ? "import-stat import-stat-danger" : "import-stat import-stat-muted"}>
          <dt>Rejected</dt>
          <dd data-testid="import-rejected">{result.rejected.length}</dd>
        </div>
        <div className={created ? "import-stat" : "import-stat import-stat-muted"}>
          <dt>Subscriptions created</dt>
          <dd data-testid="import-subscriptions">{created}</dd>
        </div>
      </dl>
      <div className="card-footer">
        <div className="form-actions">
          <Link href="/events" className="button button-primary">
            View events
          </Link>
          <Link href="/subscriptions" className="button button-secondary">
            View subscriptions
          </Link>
          <button type="button" className="button button-secondary" onClick={props.onAnother}>
            Import another statement
          </button>
        </div>
      </div>
    </section>
  );
}
