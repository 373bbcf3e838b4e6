// A table that scrolls sideways on a narrow screen, reachable from the keyboard: a scrolling
// region must take focus (axe scrollable-region-focusable) and, as a region, has a name.
import type { ReactNode } from "react";

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
