// A business's Projects tab: each project's health over the last 30 or 90 days
// (GET /v1/businesses/{id}/project-health), then the project list with create, rename and archive.
import { addDays, todayIn } from "@/lib/days";
import { BusinessHeader } from "@/components/businesses/business-header";
import { BusinessTabs } from "@/components/businesses/business-tabs";
import { FiguresRefused } from "@/components/panel/figures-refused";
import { PROJECTS_PAGE_SIZE } from "@/components/panel/page-size";
import { parseHealthPeriod } from "@/components/projects/health-period";
import { ProjectHealthView } from "@/components/projects/project-health-view";
import { ProjectsView } from "@/components/projects/projects-view";
import { detailMetadata, loadDetail, type TDetailPageProps } from "@/app/(panel)/detail-page";
import { loadFigures } from "@/app/(panel)/figures-refused";
import { getOwnerMe } from "@/server/trpc/server-caller";

export const dynamic = "force-dynamic";

export const generateMetadata = detailMetadata(async (caller, id) => {
  const business = await caller.businesses.get({ id });
  return { data: { name: `Projects · ${business.data.name}` } };
}, "Projects");

type TProjectsPageProps = TDetailPageProps & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function BusinessProjectsPage(props: TProjectsPageProps) {
  const {
    caller,
    id,
    record: business,
  } = await loadDetail(props, (owner, businessId) => owner.businesses.get({ id: businessId }));
  const period = parseHealthPeriod((await props.searchParams).days);
  const { timezone } = await getOwnerMe();
  const from = addDays(todayIn(timezone), -(period - 1));
  const [health, projects] = await Promise.all([
    loadFigures(() => caller.readModels.businessProjectHealth({ id, from })),
    caller.projects.find({ id, limit: PROJECTS_PAGE_SIZE }),
  ]);

  return (
    <div className="page">
      <BusinessHeader business={business} />
      <BusinessTabs businessId={business.id} current="projects" />
      <div className="stack stack-fill">
        {health.refused ? (
          <FiguresRefused refused={health.refused} headingId="health-refused-heading" />
        ) : (
          <ProjectHealthView
            health={health.result.data}
            coverage={{ revenue: health.result.coverage.revenue, expenses: health.result.coverage.expenses }}
            period={period}
          />
        )}
        <ProjectsView businessId={business.id} initialPage={projects} />
      </div>
    </div>
  );
}
