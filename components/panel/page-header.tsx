// The top of a panel page: the way back to where it was opened from, and its heading with a
// line or a row of facts under it.
import Link from "next/link";
import type { ReactNode } from "react";
import { ArrowLeftIcon } from "../ui/icons";

export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="back-link">
      <ArrowLeftIcon />
      {children}
    </Link>
  );
}

export function PageHeader(props: {
  title: ReactNode;
  /** A sentence under the heading. */
  lead?: ReactNode;
  /** A row of facts under the heading (status, dates, ids). */
  meta?: ReactNode;
  /** Controls on the right of the heading (wrapping under it on narrow screens), e.g. the display currency. */
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1>{props.title}</h1>
        {props.lead === undefined ? null : <p>{props.lead}</p>}
        {props.meta === undefined ? null : <div className="page-header-meta">{props.meta}</div>}
      </div>
      {props.actions === undefined ? null : <div className="page-header-actions">{props.actions}</div>}
    </header>
  );
}
