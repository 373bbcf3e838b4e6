// The Waitlist page's body: how many joined from each source, then the entries newest first, a
// page at a time (links, so the list pages without JavaScript too). Server-rendered: the page
// reads the waitlist as the API does (a reader's read, audited as waitlist.read).
import Link from "next/link";
import type { TWaitlistEntry, TWaitlistSources } from "@/server/waitlist/waitlist.schema";
import { CardHeader } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { DateTime } from "../panel/preferences";
import { UsersIcon } from "../ui/icons";
import { describeUserAgent } from "../sessions/user-agent";

type TRow = TWaitlistEntry & { id: string };

const NO_SOURCE = "No source";

function SourceName({ source }: { source: string | null }) {
  return source === null ? <span className="muted">{NO_SOURCE}</span> : <span className="mono">{source}</span>;
}

const COLUMNS: TColumn<TRow>[] = [
  { header: "Email", cell: (entry) => <span className="cell-strong waitlist-email">{entry.email}</span> },
  { header: "Source", cell: (entry) => <SourceName source={entry.source} /> },
  { header: "Joined", cellClassName: "cell-date", cell: (entry) => <DateTime iso={entry.created_at} withTime /> },
  {
    header: "Browser",
    cell: (entry) =>
      entry.user_agent ? (
        <span title={entry.user_agent}>{describeUserAgent(entry.user_agent)}</span>
      ) : (
        <span className="muted">Unknown</span>
      ),
  },
];

export function WaitlistView(props: {
  sources: TWaitlistSources;
  entries: TWaitlistEntry[];
  nextCursor: string | null;
  isFirstPage: boolean;
  landingUrl: string;
}) {
  const { sources, entries } = props;
  if (sources.total === 0 && entries.length === 0) {
    return (
      <section className="card" aria-labelledby="waitlist-empty">
        <CardHeader headingId="waitlist-empty" title="Entries" />
        <EmptyState icon={<UsersIcon />} title="No one has joined yet">
          Share your landing page, <a href={props.landingUrl}>{props.landingUrl}</a>, adding{" "}
          <span className="mono">?utm_source=</span> and a name to each link (newsletter, ads…) so this page counts where people
          come from. Or paste the waitlist snippet (<a href="/waitlist-snippet.html">waitlist-snippet.html</a>) into your own
          site, served from LANDING_ORIGIN.
        </EmptyState>
      </section>
    );
  }
  const rows: TRow[] = entries.map((entry) => ({ ...entry, id: `${entry.created_at}-${entry.email}` }));
  return (
    <div className="stack">
      <section className="card" aria-labelledby="waitlist-sources">
        <CardHeader headingId="waitlist-sources" title="By source">
          <span className="count" data-testid="waitlist-total">
            {sources.total} {sources.total === 1 ? "entry" : "entries"}
          </span>
        </CardHeader>
        <ul className="waitlist-sources">
          {sources.sources.map((group) => (
            <li key={group.source ?? ""}>
              <SourceName source={group.source} />
              <span className="waitlist-source-count">{group.count}</span>
            </li>
          ))}
          {sources.truncated ? (
            <li>
              <span className="muted">Other sources</span>
              <span className="waitlist-source-count">{sources.other_count}</span>
            </li>
          ) : null}
        </ul>
      </section>
      <section className="card" aria-labelledby="waitlist-entries">
        <CardHeader headingId="waitlist-entries" title={props.isFirstPage ? "Newest entries" : "Older entries"} />
        <DataTable columns={COLUMNS} items={rows} label="Waitlist entries" stack />
        {props.nextCursor || !props.isFirstPage ? (
          <div className="card-footer waitlist-pager">
            {!props.isFirstPage ? (
              <Link href="/waitlist" className="button button-secondary">
                Back to the newest
              </Link>
            ) : null}
            {props.nextCursor ? (
              <Link href={`/waitlist?cursor=${encodeURIComponent(props.nextCursor)}`} className="button button-secondary">
                Older entries
              </Link>
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}

export function WaitlistNotYours() {
  return (
    <section className="card" aria-labelledby="waitlist-not-yours">
      <CardHeader headingId="waitlist-not-yours" title="Not your waitlist" />
      <EmptyState icon={<UsersIcon />} title="The waitlist is not yours to read">
        Only the owners named in WAITLIST_READERS can see who joined (when it is unset: the static owner, or else the first owner
        of this server). Ask the person who runs this server to add your email there if you should see it.
      </EmptyState>
    </section>
  );
}
