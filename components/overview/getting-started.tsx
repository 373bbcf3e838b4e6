// What a new owner does first, in order, each step ticked on exactly what it names: add a
// business (one exists), record a cash balance (the Overview has cash), bring in money data (any
// event exists: entered by hand, imported from a statement or delivered by a connection). A
// connection without data yet does not tick it, nor does one without data keep it unticked
// (issue 37: 45 entries and 340 imported rows beside an empty ad account). Shown until all three are done.
import Link from "next/link";
import { CardSection } from "../ui/card";

export type TGettingStarted = { hasBusiness: boolean; hasCash: boolean; hasData: boolean };

/** Each step from what it names. */
export function gettingStartedState(facts: { businesses: number; cash: boolean; hasEvents: boolean }): TGettingStarted {
  return { hasBusiness: facts.businesses > 0, hasCash: facts.cash, hasData: facts.hasEvents };
}

export function isStarted(state: TGettingStarted): boolean {
  return state.hasBusiness && state.hasCash && state.hasData;
}

export function GettingStarted({ state, firstBusinessId }: { state: TGettingStarted; firstBusinessId: string | null }) {
  const steps = [
    {
      id: "business",
      done: state.hasBusiness,
      title: "Add a business",
      body: (
        <>
          Each company you keep books for, in its own currency. <Link href="/businesses">Add a business</Link>
        </>
      ),
    },
    {
      id: "cash",
      done: state.hasCash,
      title: "Record a cash balance",
      body: (
        <>
          How much is in the bank today: cash and runway start from it.{" "}
          {firstBusinessId ? (
            <Link href={`/businesses/${firstBusinessId}#record-cash`}>Record cash</Link>
          ) : (
            "Add a business first."
          )}
        </>
      ),
    },
    {
      id: "data",
      done: state.hasData,
      title: "Bring in your money data",
      body: (
        <>
          <Link href="/integrations">Connect an integration</Link>, <Link href="/imports">import a bank statement</Link> or{" "}
          <Link href={firstBusinessId ? `/events?business=${firstBusinessId}` : "/events"}>record revenue and expenses</Link>.
        </>
      ),
    },
  ];
  return (
    <CardSection headingId="getting-started-heading" title="Get started" description="Three steps and the Overview fills in.">
      <ol className="steps" data-testid="getting-started">
        {steps.map((step, index) => (
          <li
            key={step.id}
            className={step.done ? "step step-done" : "step"}
            data-step={step.id}
            data-done={step.done || undefined}
          >
            <span className="step-number" aria-hidden="true">
              {step.done ? "✓" : index + 1}
            </span>
            <div>
              <h3>
                {step.title}
                {step.done ? <span className="visually-hidden"> (done)</span> : null}
              </h3>
              <p>{step.body}</p>
            </div>
          </li>
        ))}
      </ol>
    </CardSection>
  );
}
