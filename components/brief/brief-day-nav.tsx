// The Daily brief's way between days: the day before, a date picker (a plain GET form, so it
// works before scripts load and the address can be shared) and the day after, none after today
// (it has not begun). A day before the owner's books began shows that they had not started.
import Link from "next/link";
import type { ReactNode } from "react";
import { ArrowLeftIcon, ArrowRightIcon } from "../ui/icons";
import { briefHref, briefNav } from "./brief-days";

function DayLink(props: { to: string | null; today: string; rel: "prev" | "next"; children: ReactNode }) {
  // No link to a day that has not begun: shown, but not a link (and said so to a screen reader).
  if (props.to === null) {
    return (
      <span className="button button-secondary brief-nav-button" aria-disabled="true" data-testid={`brief-${props.rel}`}>
        {props.children}
      </span>
    );
  }
  return (
    <Link
      href={briefHref(props.to, props.today)}
      rel={props.rel}
      className="button button-secondary brief-nav-button"
      data-testid={`brief-${props.rel}`}
    >
      {props.children}
    </Link>
  );
}

export function BriefDayNav(props: { date: string; today: string }) {
  const nav = briefNav(props.date, props.today);
  return (
    <nav className="brief-nav" aria-label="Other days">
      <DayLink to={nav.previous} today={props.today} rel="prev">
        <ArrowLeftIcon />
        Previous day
      </DayLink>
      <form method="get" action="/brief" className="brief-date-form" aria-label="Pick a day">
        <label className="label" htmlFor="brief-date">
          Day
        </label>
        <input id="brief-date" className="input" type="date" name="date" max={props.today} defaultValue={props.date} required />
        <button type="submit" className="button button-secondary brief-nav-button">
          Show
        </button>
      </form>
      <DayLink to={nav.next} today={props.today} rel="next">
        Next day
        <ArrowRightIcon />
      </DayLink>
    </nav>
  );
}
