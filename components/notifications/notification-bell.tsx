"use client";
// The bell in the panel's top bar: a link to /notifications with the unread count
// (Me.unread_notifications). It refreshes every half minute, when the window regains focus, and
// when the notifications page marks something read (it invalidates me.get).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTRPC } from "@/lib/trpc/client";
import { BellIcon } from "../ui/icons";
import { bellLabel, unreadBadge } from "./notification-words";

const REFRESH_MS = 30_000;

export function NotificationBell({ initialUnread }: { initialUnread: number }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const me = useQuery({
    ...trpc.me.get.queryOptions({}),
    // A focus after a few seconds away asks again (the panel's default waits 30 s).
    staleTime: 5_000,
    refetchInterval: REFRESH_MS,
  });
  const fetched = me.data?.data;
  const unread = fetched && "unread_notifications" in fetched ? fetched.unread_notifications : initialUnread;
  const badge = unreadBadge(unread);
  return (
    <Link
      href="/notifications"
      className="bell"
      aria-label={bellLabel(unread)}
      aria-current={pathname === "/notifications" ? "page" : undefined}
      data-testid="notification-bell"
    >
      <BellIcon />
      {badge ? (
        <span className="bell-count" aria-hidden="true" data-testid="unread-count">
          {badge}
        </span>
      ) : null}
    </Link>
  );
}
