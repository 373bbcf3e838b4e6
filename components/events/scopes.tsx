"use client";
// The scopes a record can belong to (each business, each project, Personal), loaded once for
// the scope selects and to name a record's scope in lists.
import { useQuery } from "@tanstack/react-query";
import { useTRPCClient } from "@/lib/trpc/client";

export type TScopeOption = { value: string; label: string; currency: string | null };
export type TScopes = {
  options: TScopeOption[];
  businesses: { id: string; name: string; currency: string }[];
  projects: { id: string; name: string; business_id: string }[];
};

export const PERSONAL_SCOPE = "personal";

export function useScopes(): TScopes {
  const client = useTRPCClient();
  const query = useQuery({
    queryKey: ["panel", "scopes"],
    queryFn: async ({ signal }): Promise<TScopes> => {
      const businesses = (await client.businesses.find.query({ limit: 200 }, { signal })).data;
      const projectLists = await Promise.all(
        businesses.map((business) => client.projects.find.query({ id: business.id, limit: 200 }, { signal })),
      );
      const projects = projectLists.flatMap((list, index) =>
        list.data.map((project) => ({ id: project.id, name: project.name, business_id: businesses[index]!.id })),
      );
      // Archived businesses and projects name existing records but are not offered for new ones.
      const options: TScopeOption[] = [];
      businesses.forEach((business, index) => {
        if (business.status === "archived") return;
        options.push({ value: `b:${business.id}`, label: business.name, currency: business.currency });
        for (const project of projectLists[index]!.data)
          if (project.status !== "archived")
            options.push({ value: `p:${project.id}`, label: `${business.name} / ${project.name}`, currency: business.currency });
      });
      options.push({ value: PERSONAL_SCOPE, label: "Personal", currency: null });
      return {
        options,
        businesses: businesses.map((b) => ({ id: b.id, name: b.name, currency: b.currency })),
        projects,
      };
    },
  });
  return query.data ?? { options: [{ value: PERSONAL_SCOPE, label: "Personal", currency: null }], businesses: [], projects: [] };
}

/** "b:…" / "p:…" / "personal" → the scope fields of an input. */
export function scopeInput(value: string): { business_id?: string; project_id?: string; personal?: true } {
  if (value.startsWith("b:")) return { business_id: value.slice(2) };
  if (value.startsWith("p:")) return { project_id: value.slice(2) };
  return { personal: true };
}

/** The name of a record's scope. */
export function scopeName(
  scopes: TScopes,
  record: { business_id: string | null; project_id: string | null; personal: boolean },
): string {
  if (record.personal) return "Personal";
  const business = scopes.businesses.find((b) => b.id === record.business_id);
  if (record.project_id) {
    const project = scopes.projects.find((p) => p.id === record.project_id);
    return `${business?.name ?? "Business"} / ${project?.name ?? "Project"}`;
  }
  return business?.name ?? "Business";
}

/** A record's scope in a table cell: the project over its business, or the business, or Personal. */
export function ScopeCell({
  scopes,
  record,
}: {
  scopes: TScopes;
  record: { business_id: string | null; project_id: string | null; personal: boolean };
}) {
  if (record.personal) return <span className="muted">Personal</span>;
  const business = scopes.businesses.find((b) => b.id === record.business_id)?.name ?? "Business";
  if (!record.project_id) return <span>{business}</span>;
  const project = scopes.projects.find((p) => p.id === record.project_id)?.name ?? "Project";
  return (
    <>
      <span>{project}</span>
      <span className="cell-sub">{business}</span>
    </>
  );
}
