"use client";
// The left navigation; marks the section the current page belongs to (the most specific
// entry wins: /settings/sessions is Sessions, not Settings) and shows the pending-approvals count.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTRPC } from "@/lib/trpc/client";
import { NAV_ITEMS, visibleNavItems } from "./nav-items";

/** How many pending approvals the badge counts before it says "200+". */
const PENDING_BADGE_LIMIT = 200;

function matches(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

export function SidebarNav({ waitlistReader }: { waitlistReader: boolean }) {
  const pathname = usePathname();
  const items = visibleNavItems(NAV_ITEMS, { waitlist_reader: waitlistReader });
  const currentHref = items.filter((item) => matches(pathname, item.href)).sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <nav aria-label="Main">
      <ul className="nav">
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} className="nav-link" aria-current={item.href === currentHref ? "page" : undefined}>
              {item.icon}
              <span className="nav-label">{item.label}</span>
              {item.badge === "pending-approvals" ? <PendingApprovalsBadge /> : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function PendingApprovalsBadge() {
  const trpc = useTRPC();
  const pending = useQuery({
    ...trpc.approvals.find.queryOptions({ status: "pending", limit: PENDING_BADGE_LIMIT }),
    refetchInterval: 60_000,
  });
  const count = pending.data?.data.length ?? 0;
  if (count === 0) return null;
  const label = pending.data?.page.has_more ? `${PENDING_BADGE_LIMIT}+` : String(count);
  return (
    <span className="nav-badge" data-testid="pending-approvals-count" aria-label={`${label} pending`}>
      {label}
    </span>
  );
}
