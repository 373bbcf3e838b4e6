// The panel's sections, in the order the navigation shows them. A section appears once its
// page exists (`ready`); the rest are listed so the order is settled in one place.
import type { ReactNode } from "react";
import {
  BookmarkIcon,
  BotIcon,
  BuildingIcon,
  ChartIcon,
  CheckIcon,
  GridIcon,
  HistoryIcon,
  KeyIcon,
  ListIcon,
  PlugIcon,
  RepeatIcon,
  SettingsIcon,
  SunriseIcon,
  TagIcon,
  TargetIcon,
  UploadIcon,
  UsersIcon,
  WalletIcon,
} from "../ui/icons";

export type TNavItem = {
  href: string;
  label: string;
  icon: ReactNode;
  ready: boolean;
  /** Listed only for the owners the server lets read it (Me.waitlist_reader). */
  only?: "waitlist-reader";
  /** A count shown beside the label (the sidebar fetches it). */
  badge?: "pending-approvals";
};

export const NAV_ITEMS: TNavItem[] = [
  { href: "/overview", label: "Overview", icon: <GridIcon />, ready: true },
  { href: "/brief", label: "Daily brief", icon: <SunriseIcon />, ready: true },
  { href: "/businesses", label: "Businesses", icon: <BuildingIcon />, ready: true },
  { href: "/events", label: "Events", icon: <ListIcon />, ready: true },
  { href: "/reports", label: "Reports", icon: <ChartIcon />, ready: true },
  { href: "/subscriptions", label: "Subscriptions", icon: <RepeatIcon />, ready: true },
  { href: "/cash", label: "Cash", icon: <WalletIcon />, ready: true },
  { href: "/reservations", label: "Reservations", icon: <BookmarkIcon />, ready: true },
  { href: "/goals", label: "Goals", icon: <TargetIcon />, ready: true },
  { href: "/agents", label: "Agents", icon: <BotIcon />, ready: true },
  { href: "/approvals", label: "Approvals", icon: <CheckIcon />, ready: true, badge: "pending-approvals" },
  { href: "/integrations", label: "Integrations", icon: <PlugIcon />, ready: true },
  { href: "/imports", label: "Imports", icon: <UploadIcon />, ready: true },
  { href: "/waitlist", label: "Waitlist", icon: <UsersIcon />, ready: true, only: "waitlist-reader" },
  { href: "/audit", label: "Audit log", icon: <HistoryIcon />, ready: true },
  { href: "/rules", label: "Rules", icon: <TagIcon />, ready: true },
  { href: "/settings", label: "Settings", icon: <SettingsIcon />, ready: true },
  { href: "/settings/sessions", label: "Sessions", icon: <KeyIcon />, ready: true },
];

/** The sections this owner sees: ready ones, and those for some owners only when this owner is one of them. */
export function visibleNavItems(items: readonly TNavItem[], me: { waitlist_reader: boolean }): TNavItem[] {
  return items.filter((item) => item.ready && (item.only !== "waitlist-reader" || me.waitlist_reader));
}
