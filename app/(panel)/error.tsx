"use client";
// A panel page failed to render: say so calmly and offer a retry, keeping the navigation.
import { useEffect } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon } from "@/components/ui/icons";

export default function PanelError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="page">
      <div className="card">
        <EmptyState icon={<AlertIcon />} title="This page could not be loaded">
          Something went wrong on our side{error.digest ? ` (reference ${error.digest})` : ""}.{" "}
          <button type="button" className="button button-secondary" onClick={reset} style={{ marginTop: 12 }}>
            Try again
          </button>
        </EmptyState>
      </div>
    </div>
  );
}
