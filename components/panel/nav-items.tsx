// The panel's sections, in the order the navigation shows them. A section appears once its
// page exists (`ready`); the rest are listed so the order is settled in one place.
import type { ReactNode } from "react";
import {
  BotIcon,
  BuildingIcon,
  CheckIcon,
  GridIcon,
  ListIcon,
  PlugIcon,
  RepeatIcon,
  SettingsIcon,
  UploadIcon,
} from "../ui/icons";

export type TNavItem = { href: string; label: string; icon: ReactNode; ready: boolean };

export const NAV_ITEMS: TNavItem[] = [
  { href: "/overview", label: "Overview", icon: <GridIcon />, ready: false },
  { href: "/businesses", label: "Businesses", icon: <BuildingIcon />, ready: true },
  { href: "/events", label: "Events", icon: <ListIcon />, ready: false },
  { href: "/subscriptions", label: "Subscriptions", icon: <RepeatIcon />, ready: false },
  { href: "/agents", label: "Agents", icon: <BotIcon />, ready: false },
  { href: "/approvals", label: "Approvals", icon: <CheckIcon />, ready: false },
  { href: "/integrations", label: "Integrations", icon: <PlugIcon />, ready: false },
  { href: "/imports", label: "Imports", icon: <UploadIcon />, ready: false },
  { href: "/settings", label: "Settings", icon: <SettingsIcon />, ready: true },
];
