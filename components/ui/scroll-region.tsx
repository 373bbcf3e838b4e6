"use client";
// A box that scrolls sideways when what it holds is wider than the screen (a table on a phone).
// While it overflows, a keyboard can reach it (tabIndex 0) to scroll it, and a screen reader
// hears it as a named region; while it fits, it is a plain box and no extra tab stop.
import { useEffect, useRef, useState, type ReactNode } from "react";

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflows(box.scrollWidth > box.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className="table-scroll"
      tabIndex={overflows ? 0 : undefined}
      role={overflows ? "region" : undefined}
      aria-label={overflows ? label : undefined}
    >
      {children}
    </div>
  );
}
