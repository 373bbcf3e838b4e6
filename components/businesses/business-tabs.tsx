// The business page's sections, each its own route under /businesses/<id> (so a tab is a link:
// shareable, back-button friendly, and loaded on the server like every panel page).
import Link from "next/link";

/** Each tab: its path below /businesses/<id> ("" is the overview) and its label. */
export const BUSINESS_TABS = [
  { path: "", label: "Overview" },
  { path: "saas", label: "SaaS" },
  { path: "ads", label: "Ads" },
  { path: "projects", label: "Projects" },
  { path: "simulate", label: "What if" },
] as const;

export type TBusinessTabPath = (typeof BUSINESS_TABS)[number]["path"];

export function BusinessTabs(props: { businessId: string; current: TBusinessTabPath }) {
  if (BUSINESS_TABS.length < 2) return null;
  return (
    <nav className="business-tabs" aria-label="Business sections">
      {BUSINESS_TABS.map((tab) => (
        <Link
          key={tab.path}
          href={`/businesses/${props.businessId}${tab.path ? `/${tab.path}` : ""}`}
          aria-current={tab.path === props.current ? "page" : undefined}
          className="business-tab"
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
