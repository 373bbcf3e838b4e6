import type { Metadata } from "next";
import { WaitlistView, WaitlistNotYours } from "@/components/waitlist/waitlist-view";
import { PageHeader } from "@/components/panel/page-header";
import { FormAlert } from "@/components/ui/field";
import { newPanelRequestId, requireOwnerSession } from "@/server/auth/panel-session";
import { getEnv } from "@/server/env";
import { toAppError } from "@/server/errors/to-app-error";
import { getOwnerCaller } from "@/server/trpc/server-caller";
import { findWaitlistPage } from "@/server/waitlist/waitlist-service";

export const metadata: Metadata = { title: "Waitlist" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

type TSearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function WaitlistPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const caller = await getOwnerCaller();
  const lead = "Who asked to join from the landing page or your own site, newest first, and where they came from.";
  let sources;
  try {
    sources = (await caller.waitlist.findSources({})).data;
  } catch (error) {
    // Only the readers (WAITLIST_READERS) may read the waitlist; for anyone else the API says it does not exist.
    if (toAppError(error).code !== "not_found") throw error;
    return (
      <div className="page">
        <PageHeader title="Waitlist" lead={lead} />
        <WaitlistNotYours />
      </div>
    );
  }

  // The list is GET /v1/waitlist's page (a plain route, for its CSV twin): the same service, as this owner.
  const { db, actor } = await requireOwnerSession();
  const cursor = first((await searchParams).cursor);
  const owner = { ownerId: actor.ownerId, actor, requestId: newPanelRequestId(), now: new Date() };
  let page;
  let pageError: string | null = null;
  try {
    page = await findWaitlistPage(db, owner, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  } catch (error) {
    if (toAppError(error).code !== "validation_error") throw error;
    pageError = "That page of the list no longer exists, so this is the newest one.";
    page = await findWaitlistPage(db, owner, { limit: PAGE_SIZE });
  }
  const landingUrl = new URL("/", getEnv().publicBaseUrl).toString();
  return (
    <div className="page">
      <PageHeader
        title="Waitlist"
        lead={lead}
        actions={
          sources.total > 0 ? (
            <a className="button button-secondary" href="/api/panel/waitlist/export" download>
              Download CSV
            </a>
          ) : undefined
        }
      />
      <FormAlert message={pageError} />
      <WaitlistView
        sources={sources}
        entries={page.data}
        nextCursor={page.page.next_cursor}
        isFirstPage={!cursor || pageError !== null}
        landingUrl={landingUrl}
      />
    </div>
  );
}
