// A notification's severity as a word and an icon (and a colour, never the colour alone).
import type { ReactElement } from "react";
import { CriticalIcon, InfoIcon, WarningIcon } from "../ui/icons";
import { SEVERITY_LABELS, type TSeverity } from "./notification-words";

const TONES: Record<TSeverity, string> = { info: "pill-accent", warning: "pill-warning", critical: "pill-danger" };
const ICONS: Record<TSeverity, () => ReactElement> = { info: InfoIcon, warning: WarningIcon, critical: CriticalIcon };

export function SeverityBadge({ severity }: { severity: TSeverity }) {
  const Icon = ICONS[severity];
  return (
    <span className={`pill ${TONES[severity]} severity-badge`} data-severity={severity}>
      <Icon />
      {SEVERITY_LABELS[severity]}
    </span>
  );
}
