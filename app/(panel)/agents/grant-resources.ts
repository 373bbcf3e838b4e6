// The resources a grant can name, for the grants editor's select: everything (`*`), the
// personal scope, and each of the owner's businesses and projects, read through the same
// procedures as the rest of the panel (businesses.find, projects.find).
import type { TResourceOption } from "@/components/agents/grants";
import type { TServerCaller } from "@/server/trpc/server-caller";

/** Enough for any real owner; beyond it the select lists the first ones. */
const MAX_PAGES = 10;
const PAGE_SIZE = 200;

async function allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; page: { next_cursor: string | null } }>,
) {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await fetchPage(cursor);
    items.push(...result.data);
    if (!result.page.next_cursor) break;
    cursor = result.page.next_cursor;
  }
  return items;
}

export async function loadGrantResources(caller: TServerCaller): Promise<TResourceOption[]> {
  const businesses = await allPages((cursor) => caller.businesses.find({ limit: PAGE_SIZE, cursor }));
  const projects = await Promise.all(
    businesses.map(async (business) => ({
      business,
      projects: await allPages((cursor) => caller.projects.find({ id: business.id, limit: PAGE_SIZE, cursor })),
    })),
  );
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
  return [
    { value: "*", label: "All resources", group: "General" },
    { value: "personal", label: "Personal", group: "General" },
    ...[...businesses]
      .sort(byName)
      .map((business) => ({ value: `business:${business.id}`, label: business.name, group: "Businesses" as const })),
    ...projects
      .sort((a, b) => byName(a.business, b.business))
      .flatMap(({ business, projects: list }) =>
        [...list].sort(byName).map((project) => ({
          value: `project:${project.id}`,
          label: `${business.name} › ${project.name}`,
          group: "Projects" as const,
        })),
      ),
  ];
}
