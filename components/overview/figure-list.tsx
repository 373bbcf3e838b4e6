// A row of headline figures (cash, runway, free capital, …): each a term, its value and a line
// under it. A description list, so a screen reader reads each figure with its name.
import type { ReactNode } from "react";

export type TFigure = {
  id: string;
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  tone?: "danger" | "muted";
};

export function FigureList({ figures }: { figures: readonly TFigure[] }) {
  return (
    <dl className="figures">
      {figures.map((figure) => (
        <div
          key={figure.id}
          className={figure.tone ? `figure figure-${figure.tone}` : "figure"}
          data-testid={`figure-${figure.id}`}
        >
          <dt>{figure.label}</dt>
          <dd className="figure-value" data-testid="figure-value">
            {figure.value}
          </dd>
          {figure.detail === undefined ? null : <dd className="figure-detail">{figure.detail}</dd>}
        </div>
      ))}
    </dl>
  );
}
