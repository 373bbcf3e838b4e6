// A signal's severity as a word with its own icon shape (octagon, triangle, circle), so it never
// rests on colour alone. The icon is decoration (aria-hidden); the word is what is read.
import type { ReactNode } from "react";

type TSeverity = "critical" | "warning" | "info";

const TONES: Record<TSeverity, string> = { critical: "pill-danger", warning: "pill-warning", info: "pill-accent" };
const LABELS: Record<TSeverity, string> = { critical: "Critical", warning: "Warning", info: "Info" };

function Glyph({ children }: { children: ReactNode }) {
  return (
    <svg
      className="severity-icon"
      viewBox="0 0 16 16"
      width="12"
      height="12"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

const ICONS: Record<TSeverity, ReactNode> = {
  critical: (
    <Glyph>
      <path d="M5.5 1.5h5l4 4v5l-4 4h-5l-4-4v-5z" />
      <path d="M8 5v3.5M8 11h.01" />
    </Glyph>
  ),
  warning: (
    <Glyph>
      <path d="M8 1.8 14.8 14H1.2z" />
      <path d="M8 6.5v3M8 11.8h.01" />
    </Glyph>
  ),
  info: (
    <Glyph>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M8 7.5V11M8 5h.01" />
    </Glyph>
  ),
};

export function SeverityBadge({ severity }: { severity: TSeverity }) {
  return (
    <span className={`pill ${TONES[severity]} severity-badge`} data-severity={severity}>
      {ICONS[severity]}
      {LABELS[severity]}
    </span>
  );
}
