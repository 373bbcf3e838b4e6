"use client";
// How a subscription's cost splits over the projects of its business: one share in percent
// (up to two decimals, converted exactly to basis points) per project, a running sum that is
// green at exactly 100.00 % (10000 bps), and Save (subscriptions.putAllocations).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { appCodeOf, formErrorOf } from "@/lib/trpc/errors";
import { useTRPC } from "@/lib/trpc/client";
import type { TSubscription } from "@/server/subscriptions/subscription.schema";
import type { TScopes } from "../events/scopes";
import { FormAlert } from "../ui/field";
import { bpsToPercent, percentToBps, shareAmount } from "./allocation-shares";

export function AllocationEditor({ subscription, scopes }: { subscription: TSubscription; scopes: TScopes }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const projects = scopes.projects
    .filter((project) => project.business_id === subscription.business_id)
    .sort((a, b) => a.name.localeCompare(b.name));
  const [shares, setShares] = useState<Record<string, string>>(() =>
    Object.fromEntries(subscription.allocations.map((a) => [a.project_id, bpsToPercent(a.share_bps)])),
  );
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const save = useMutation(
    trpc.subscriptions.putAllocations.mutationOptions({
      onSuccess: async () => {
        setError(null);
        setSaved("Allocations saved.");
        await queryClient.invalidateQueries({ queryKey: trpc.subscriptions.find.pathKey() });
      },
      onError: (failure) => {
        setSaved(null);
        setError(
          appCodeOf(failure) === "allocation_sum_invalid"
            ? "The shares must add up to exactly 100.00 %. Nothing was saved."
            : (formErrorOf(failure, []).summary ?? "The allocations could not be saved."),
        );
      },
    }),
  );

  const parsed = projects.map((project) => ({ project, bps: percentToBps(shares[project.id] ?? "") }));
  const invalid = parsed.some((entry) => entry.bps === null);
  const total = parsed.reduce((sum, entry) => sum + (entry.bps ?? 0), 0);
  const exact = !invalid && total === 10_000;

  if (!subscription.business_id) {
    return <p className="muted">A personal subscription has no projects to split its cost over.</p>;
  }
  if (projects.length === 0) {
    return <p className="muted">This business has no projects yet. Add projects on the business page to split the cost.</p>;
  }

  return (
    <form
      className="form"
      aria-label="Allocations"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid) {
          setError("Enter each share as a percentage with at most two decimals, e.g. 33.33.");
          return;
        }
        save.mutate({
          id: subscription.id,
          allocations: parsed.filter((e) => (e.bps ?? 0) > 0).map((e) => ({ project_id: e.project.id, share_bps: e.bps! })),
        });
      }}
    >
      <FormAlert message={error} />
      <table className="table table-compact">
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col" className="cell-right">
              Share
            </th>
            <th scope="col" className="cell-right">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {parsed.map(({ project, bps }) => (
            <tr key={project.id}>
              <td className="cell-strong">{project.name}</td>
              <td className="cell-right">
                <span style={{ display: "inline-flex", alignItems: "center", gap: 6 }}>
                  <input
                    className="input mono input-amount"
                    style={{ width: 96, textAlign: "right" }}
                    inputMode="decimal"
                    aria-label={`Share of ${project.name} (%)`}
                    aria-invalid={bps === null ? true : undefined}
                    placeholder="0.00"
                    value={shares[project.id] ?? ""}
                    onChange={(event) => {
                      setShares((current) => ({ ...current, [project.id]: event.target.value }));
                      setSaved(null);
                      setError(null);
                    }}
                  />
                  %
                </span>
              </td>
              <td className="cell-right mono muted">{bps ? shareAmount(subscription, project.id, bps) : "—"}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td className="cell-strong">Total</td>
            <td className="cell-right">
              <span
                data-testid="allocation-sum"
                className={exact ? "pill pill-success" : "pill pill-warning"}
                aria-live="polite"
                style={{ fontVariantNumeric: "tabular-nums" }}
              >
                {invalid
                  ? "check the shares"
                  : exact
                    ? "100.00 %"
                    : total < 10_000
                      ? `${bpsToPercent(total)} % · ${bpsToPercent(10_000 - total)} % left`
                      : `${bpsToPercent(total)} % · ${bpsToPercent(total - 10_000)} % too much`}
              </span>
            </td>
            <td />
          </tr>
        </tfoot>
      </table>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save allocations"}
        </button>
      </div>
      <p className="notice" role="status">
        {saved ?? ""}
      </p>
    </form>
  );
}
