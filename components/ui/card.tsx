// A card's header: its heading (which names the card's section through `headingId`), an
// optional line under it, and whatever sits on the right (a count, a pill, a toolbar).
import type { ReactNode } from "react";

export function CardHeader(props: {
  headingId: string;
  title: ReactNode;
  /** The line under the heading; with one, heading and line are grouped on the left. */
  description?: ReactNode;
  /** Wraps the right-hand side under the heading on narrow screens. */
  wrap?: boolean;
  children?: ReactNode;
}) {
  const heading = <h2 id={props.headingId}>{props.title}</h2>;
  return (
    <div className={props.wrap ? "card-header card-header-wrap" : "card-header"}>
      {props.description === undefined ? (
        heading
      ) : (
        <div>
          {heading}
          <p>{props.description}</p>
        </div>
      )}
      {props.children}
    </div>
  );
}

/** A titled card section, labelled by its heading. */
export function CardSection(props: {
  headingId: string;
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={props.className ? `card ${props.className}` : "card"} aria-labelledby={props.headingId}>
      <CardHeader headingId={props.headingId} title={props.title} description={props.description} />
      {props.children}
    </section>
  );
}
