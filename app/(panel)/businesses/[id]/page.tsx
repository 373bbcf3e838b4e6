import { BackLink, PageHeader } from "@/components/panel/page-header";
import { DateTime } from "@/components/panel/preferences";
import { PROJECTS_PAGE_SIZE } from "@/components/panel/page-size";
import { ProjectsView } from "@/components/projects/projects-view";
import { CardSection } from "@/components/ui/card";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata((caller, id) => caller.businesses.get({ id }), "Business");

export default async function BusinessPage(props: TDetailPageProps) {
  // Another owner's business and a malformed id alike are the not-found page.
  const {
    caller,
    id,
    record: business,
  } = await loadDetail(props, (owner, businessId) => owner.businesses.get({ id: businessId }));
  const projects = await caller.projects.find({ id, limit: PROJECTS_PAGE_SIZE });

  return (
    <div className="page">
      <BackLink href="/businesses">Businesses</BackLink>
      <PageHeader
        title={business.name}
        meta={
          <>
            <span className="badge" title="Reporting currency">
              {business.currency}
            </span>
            <span>
              Created <DateTime iso={business.created_at} />
            </span>
          </>
        }
      />
      <div className="stack">
        <ProjectsView businessId={business.id} initialPage={projects} />
        <CardSection headingId="details-heading" title="Details">
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
        </CardSection>
      </div>
    </div>
  );
}
