// Picks the period of a read model's page: a plain GET form (`?from=&to=`), so it works before
// the page's scripts load and the address can be shared. The API decides what a valid period is
// (inclusive days, at most 366, from not after to); its refusals come back here, every field's
// at once, while the page shows the default period.
import Link from "next/link";
import { Field } from "../ui/field";
import type { TPeriodErrors } from "./ads-words";

export function PeriodForm(props: {
  /** The period shown (the API's from and to). */
  from: string;
  to: string;
  /** What the owner typed, when the API refused it (shown again with the errors). */
  typed?: { from?: string; to?: string };
  errors?: TPeriodErrors;
  /** Other query parameters of the page to keep (e.g. display_currency). */
  keep?: Record<string, string>;
  /** The page without a period: the default (the 30 days to today). */
  resetHref: string;
}) {
  const errors = props.errors ?? {};
  return (
    <form method="get" className="period-form" aria-label="Period">
      {Object.entries(props.keep ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Field label="From" error={errors.from}>
        {(control) => (
          <input
            {...control}
            type="date"
            name="from"
            className="input"
            defaultValue={errors.from || errors.to ? (props.typed?.from ?? "") : props.from}
          />
        )}
      </Field>
      <Field label="To" error={errors.to}>
        {(control) => (
          <input
            {...control}
            type="date"
            name="to"
            className="input"
            defaultValue={errors.from || errors.to ? (props.typed?.to ?? "") : props.to}
          />
        )}
      </Field>
      <div className="period-actions">
        <button type="submit" className="button button-secondary button-small">
          Show period
        </button>
        <Link href={props.resetHref} className="button button-ghost button-small">
          Last 30 days
        </Link>
      </div>
    </form>
  );
}
