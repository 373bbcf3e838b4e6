// A record's status as a coloured pill: green when it works or went through, amber while it
// waits or is paused, red when it was refused or ended, grey otherwise.
const TONES: Record<string, string> = {
  active: "pill-success",
  approved: "pill-success",
  confirmed: "pill-success",
  auto_approved: "pill-success",
  applied: "pill-success",
  pending: "pill-warning",
  planned: "pill-warning",
  previewed: "pill-warning",
  suspended: "pill-warning",
  revoked: "pill-danger",
  reverted: "pill-danger",
  rejected: "pill-danger",
  failed: "pill-danger",
  expired: "pill-neutral",
  dismissed: "pill-neutral",
};

export function StatusPill({ status }: { status: string }) {
  return <span className={`pill ${TONES[status] ?? "pill-neutral"}`}>{status.replace(/_/g, " ")}</span>;
}
