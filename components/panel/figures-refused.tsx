// What a read-model page shows when the API refuses its figures (422 amount_out_of_range,
// pinned-wave3 §1.4): a total beyond ±(2^53 − 1) minor units is never shown rounded, so the page
// says why nothing is shown and what to do, instead of an error page.
import Link from "next/link";
import { EmptyState } from "../ui/empty-state";
import { AlertIcon } from "../ui/icons";

/** The figure the API refused to show: its path in the answer's data (empty when not named). */
export type TFiguresRefused = { field: string };

export function FiguresRefused({ refused, headingId }: { refused: TFiguresRefused; headingId: string }) {
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        Figures not shown
      </h2>
      <EmptyState icon={<AlertIcon />} title="These figures are too large to show exactly">
        A total here is beyond 9,007,199,254,740,991 minor units, the largest amount that can be shown without rounding, so it is
        not shown rather than rounded
        {refused.field ? (
          <>
            {" "}
            (<code>{refused.field}</code>)
          </>
        ) : null}
        . Usually one amount was entered with too many digits: find it on the <Link href="/events">Events</Link> page and correct
        or void it. The rest of your books (events, cash, subscriptions) can still be read.
      </EmptyState>
    </section>
  );
}
