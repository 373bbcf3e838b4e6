// The signed-out front page: what the service does, a picture of the Overview, the waitlist
// form (components/landing/waitlist-form.tsx) and the way in for owners.
import Link from "next/link";
import { BrandMark } from "../panel/brand";
import { ArrowRightIcon } from "../ui/icons";
import { WaitlistForm, type TWaitlistFormInitial } from "./waitlist-form";

const FEATURES = [
  {
    title: "Every business, one set of books",
    text: "Revenue, spend, subscriptions and cash for each business and project, and your own money beside them. Every amount kept exactly, in its own currency with the rate used.",
  },
  {
    title: "Agents with limits you set",
    text: "Give AI agents their own tokens with grants per business, daily and monthly limits. What goes over waits for your approval, and every decision lands in the audit log.",
  },
  {
    title: "The numbers come to you",
    text: "Payment, ad and billing platforms send signed webhooks; bank statements import as CSV. Runway, forecasts and a daily brief are computed from what really happened.",
  },
] as const;

export function LandingPage({ source, initial }: { source: string; initial: TWaitlistFormInitial | null }) {
  return (
    <div className="landing">
      <header className="landing-header">
        <Link href="/" className="brand">
          <BrandMark />
          <span className="brand-name">
            Finance
            <small>Back office</small>
          </span>
        </Link>
        <Link href="/sign-in" className="button button-secondary">
          Sign in
        </Link>
      </header>
      <main className="landing-main" id="main" tabIndex={-1}>
        <section className="landing-hero" aria-labelledby="landing-title">
          <div className="landing-hero-text">
            <h1 id="landing-title">The back office for founders who run several businesses, and let AI agents spend for them</h1>
            <p className="landing-lead">
              One place for the money of all your businesses: what came in, what went out, what is committed, and how long the
              cash lasts. Agents work through an API with limits you set; you approve what goes beyond them.
            </p>
            <section className="card landing-join" id="join" aria-labelledby="join-title">
              <h2 id="join-title">Join the waitlist</h2>
              <p className="muted">
                We are letting founders in a few at a time. Leave your email and we will write when it is your turn.
              </p>
              <WaitlistForm source={source} initial={initial} />
            </section>
          </div>
          <figure className="landing-shot">
            <img
              src="/landing/overview-1280.webp"
              srcSet="/landing/overview-640.webp 640w, /landing/overview-1280.webp 1280w"
              sizes="(max-width: 900px) 100vw, 640px"
              width={1280}
              height={800}
              alt="The Overview page of the panel: cash, runway, free capital for the next 30 days and the net of the last 30 days across all businesses, then cash and runway for each business, Northwind Studio and Harbor Labs."
              fetchPriority="high"
            />
            <figcaption>The Overview: every business at a glance, in your display currency.</figcaption>
          </figure>
        </section>
        <section className="landing-features" aria-labelledby="features-title">
          <h2 id="features-title">What it does</h2>
          <ul>
            {FEATURES.map((feature) => (
              <li key={feature.title}>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <footer className="landing-footer">
        <p>
          Already an owner?{" "}
          <Link href="/sign-in">
            Sign in to your back office <ArrowRightIcon />
          </Link>
        </p>
      </footer>
    </div>
  );
}
