// A coverage status (how fresh the data behind a figure is) in words, with what it means in its title.
import { coverageWords, type TCoverageStatus } from "./figures";

export function CoveragePill({ status, subject = "Coverage" }: { status: TCoverageStatus; subject?: string }) {
  const words = coverageWords(status);
  return (
    <span className={`pill ${words.tone} pill-plain`} title={words.description} data-testid="coverage" data-status={status}>
      <span className="visually-hidden">{subject}: </span>
      {words.label}
    </span>
  );
}
