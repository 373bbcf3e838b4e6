"use client";
// The owner's plan (GET /v1/plan): name, status and trial end, a labelled bar per limit ("2 of 3
// businesses"; unlimited said as such), and for each other plan its upgrade preview (limits
// before and after, what the usage would exceed, whether the switch is allowed) with a button
// that switches (POST /v1/plan through the panel's tRPC). A refusal is shown in that plan's card.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { appCodeOf, messageOf } from "@/lib/trpc/errors";
import type { TPlanLimitKey } from "@/server/plans/plan-limits";
import { PLAN_DISPLAY_NAMES, PLAN_LIMIT_KEYS, PLAN_LIMIT_UNITS } from "@/server/panel-contract";
import type { TPlan, TUpgradePreview } from "@/server/plans/plan.schema";
import { DateTime } from "../panel/preferences";
import { FormAlert } from "../ui/field";
import { useHydrated } from "../ui/use-hydrated";

const STATUS_WORDS: Record<TPlan["plan_status"], string> = { active: "Active", trialing: "Trial", expired: "Expired" };
const STATUS_PILLS: Record<TPlan["plan_status"], string> = {
  active: "pill-success",
  trialing: "pill-warning",
  expired: "pill-danger",
};

const number = (n: number) => n.toLocaleString("en-US");
const limitText = (allowed: number | null) => (allowed === null ? "unlimited" : number(allowed));

function UsageRow({ limit, used, allowed }: { limit: TPlanLimitKey; used: number; allowed: number | null }) {
  const id = `plan-usage-${limit}`;
  const unit = PLAN_LIMIT_UNITS[limit];
  const over = allowed !== null && used > allowed;
  return (
    <li className="plan-usage-row">
      <span id={id} className="plan-usage-label">
        {allowed === null ? `${number(used)} ${unit} (unlimited)` : `${number(used)} of ${number(allowed)} ${unit}`}
      </span>
      {allowed === null ? null : (
        <progress
          className={over ? "progress progress-over" : "progress"}
          max={Math.max(allowed, 1)}
          value={Math.min(used, Math.max(allowed, 1))}
          aria-labelledby={id}
        />
      )}
    </li>
  );
}

function PreviewCard({ preview, current }: { preview: TUpgradePreview; current: TPlan["plan"] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const change = useMutation(
    trpc.plans.change.mutationOptions({
      onSuccess: () => {
        setError(null);
        router.refresh();
      },
      onError: (thrown) => {
        setError(appCodeOf(thrown) === "state_conflict" ? `${messageOf(thrown)} Nothing was changed.` : messageOf(thrown));
      },
    }),
  );
  const name = PLAN_DISPLAY_NAMES[preview.to];
  const headingId = `plan-option-${preview.to}`;
  const changed = PLAN_LIMIT_KEYS.filter((key) => preview.limits_before[key] !== preview.limits_after[key]);
  return (
    <section className="plan-option" aria-labelledby={headingId}>
      <h3 id={headingId} className="plan-option-title">
        {name}
        {preview.allowed ? (
          <span className="pill pill-success">Allowed</span>
        ) : (
          <span className="pill pill-neutral">Not available now</span>
        )}
      </h3>
      <table className="plan-compare">
        <caption className="visually-hidden">
          Limits of {PLAN_DISPLAY_NAMES[current]} and {name}
        </caption>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">{PLAN_DISPLAY_NAMES[current]} (now)</th>
            <th scope="col">{name}</th>
          </tr>
        </thead>
        <tbody>
          {(changed.length > 0 ? changed : PLAN_LIMIT_KEYS).map((key) => (
            <tr key={key}>
              <th scope="row">{PLAN_LIMIT_UNITS[key]}</th>
              <td>{limitText(preview.limits_before[key])}</td>
              <td>{limitText(preview.limits_after[key])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {preview.would_exceed.length > 0 ? (
        <div className="plan-exceeded">
          <p className="plan-exceeded-title">Your usage is over {name}&rsquo;s limits:</p>
          <ul>
            {preview.would_exceed.map((item) => (
              <li key={item.limit}>
                {number(item.used)} {PLAN_LIMIT_UNITS[item.limit]}, {name} allows {number(item.allowed)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="hint">
        {preview.allowed ? (
          preview.resulting_status === "trialing" && preview.trial_ends_at ? (
            <>
              Starts a free 14-day trial, until <DateTime iso={preview.trial_ends_at} />. No payment is taken.
            </>
          ) : (
            "Switch at once; nothing is deleted."
          )
        ) : preview.would_exceed.length > 0 ? (
          "Remove or archive what is over first."
        ) : (
          "Your trial was used, and paid plans need a checkout, which is not available yet."
        )}
      </p>
      <FormAlert message={error} />
      <button
        type="button"
        className={preview.allowed ? "button button-primary" : "button button-secondary"}
        disabled={!hydrated || change.isPending}
        onClick={() => {
          setError(null);
          change.mutate({ plan: preview.to });
        }}
      >
        {change.isPending ? `Switching to ${name}…` : `Switch to ${name}`}
      </button>
    </section>
  );
}

export function PlanSection({ plan, previews }: { plan: TPlan; previews: TUpgradePreview[] }) {
  return (
    <div className="card-body plan-body">
      <dl className="details">
        <dt>Plan</dt>
        <dd data-testid="plan-name">{PLAN_DISPLAY_NAMES[plan.plan]}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`pill ${STATUS_PILLS[plan.plan_status]}`}>{STATUS_WORDS[plan.plan_status]}</span>
        </dd>
        {plan.trial_ends_at ? (
          <>
            <dt>{plan.plan_status === "expired" ? "Trial ended" : "Trial ends"}</dt>
            <dd>
              <DateTime iso={plan.trial_ends_at} />
            </dd>
          </>
        ) : null}
      </dl>
      {plan.plan_status === "expired" ? (
        <FormAlert message="Your trial has ended. Your records can still be read, but changes are refused until you choose a plan below." />
      ) : null}
      <h3 className="plan-subheading">Usage</h3>
      <ul className="plan-usage" aria-label="Usage of the plan's limits">
        {PLAN_LIMIT_KEYS.map((key) => (
          <UsageRow key={key} limit={key} used={plan.usage[key]} allowed={plan.limits[key]} />
        ))}
      </ul>
      <h3 className="plan-subheading">Other plans</h3>
      <div className="plan-options">
        {previews.map((preview) => (
          <PreviewCard key={preview.to} preview={preview} current={plan.plan} />
        ))}
      </div>
      <p className="hint">Billing: checkout is not available in this version, so no plan has a price.</p>
    </div>
  );
}
