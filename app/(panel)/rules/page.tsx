import type { Metadata } from "next";
import { RulesView, type TProjectOption } from "@/components/category-rules/rules-view";
import { PageHeader } from "@/components/panel/page-header";
import { getOwnerCaller } from "@/server/trpc/server-caller";

export const metadata: Metadata = { title: "Rules" };
export const dynamic = "force-dynamic";

export default async function RulesPage() {
  const caller = await getOwnerCaller();
  const [rules, businesses] = await Promise.all([
    caller.categoryRules.find({}),
    caller.businesses.find({ limit: 200, status: "active" }),
  ]);
  // A rule may also set a project: the active projects of the active businesses.
  const projectLists = await Promise.all(
    businesses.data.map((business) => caller.projects.find({ id: business.id, limit: 200, status: "active" })),
  );
  const projects: TProjectOption[] = projectLists.flatMap((list, index) =>
    list.data.map((project) => ({ id: project.id, label: `${businesses.data[index]!.name} / ${project.name}` })),
  );

  return (
    <div className="page">
      <PageHeader
        title="Rules"
        lead="Give imported and incoming rows a category automatically: the first rule that matches wins, and a row that already has a category keeps it."
      />
      <RulesView initialRules={rules.data} projects={projects} />
    </div>
  );
}
