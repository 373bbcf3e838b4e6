import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DateTime } from "@/components/panel/preferences";
import { PROJECTS_PAGE_SIZE } from "@/components/panel/page-size";
import { ProjectsView } from "@/components/projects/projects-view";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { toAppError } from "@/server/errors/to-app-error";
import { getOwnerCaller, type TServerCaller } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

type TProps = { params: Promise<{ id: string }> };

/** The business, or the not-found page (another owner's business and a malformed id alike). */
async function loadBusiness(caller: TServerCaller, id: string) {
  try {
    return (await caller.businesses.get({ id })).data;
  } catch (error) {
    const { code } = toAppError(error);
    if (code === "not_found" || code === "validation_error") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  const caller = await getOwnerCaller();
  const { id } = await params;
  const business = await caller.businesses.get({ id }).catch(() => null);
  return { title: business?.data.name ?? "Business" };
}

export default async function BusinessPage({ params }: TProps) {
  const { id } = await params;
  const caller = await getOwnerCaller();
  const business = await loadBusiness(caller, id);
  const projects = await caller.projects.find({ id, limit: PROJECTS_PAGE_SIZE });

  return (
    <div className="page">
      <Link href="/businesses" className="back-link">
        <ArrowLeftIcon />
        Businesses
      </Link>
      <header className="page-header">
        <div>
          <h1>{business.name}</h1>
          <div className="page-header-meta">
            <span className="badge" title="Reporting currency">
              {business.currency}
            </span>
            <span>
              Created <DateTime iso={business.created_at} />
            </span>
          </div>
        </div>
      </header>
      <div className="stack">
        <ProjectsView businessId={business.id} initialPage={projects} />
        <section className="card" aria-labelledby="details-heading">
          <div className="card-header">
            <h2 id="details-heading">Details</h2>
          </div>
          <dl className="details">
            <dt>Business ID</dt>
            <dd className="mono">{business.id}</dd>
            <dt>Reporting currency</dt>
            <dd>{business.currency}</dd>
            <dt>Created</dt>
            <dd>
              <DateTime iso={business.created_at} withTime />
            </dd>
            <dt>Last updated</dt>
            <dd>
              <DateTime iso={business.updated_at} withTime />
            </dd>
          </dl>
        </section>
      </div>
    </div>
  );
}
