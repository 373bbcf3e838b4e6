// Agents read events their finances:observe grant covers (pinned-wave3 §2.1, additive to
// Authentication 10): the list with business_id, project_id or personal=true (the narrowest
// filter given is the resource; none is the whole owner, which only a grant on `*` covers), one
// event by its own scope. 404 before 403 (pinned-wave2 §1.2): a filter's business or project is
// looked up for the owner first, so another owner's id is not_found, never scope_denied.
import type { TResource } from "../auth/grants";
import { requireBusiness } from "../businesses/business-service";
import type { TDbOrTx } from "../db/client";
import { requireProject } from "../projects/project-service";

export const EVENTS_READ_SCOPE = "finances:observe" as const;

/** What a list's filters read, in grant terms; their ids resolved for the owner (404). */
export async function eventFilterResource(
  db: TDbOrTx,
  ownerId: string,
  filters: { business_id?: string; project_id?: string; personal?: boolean },
): Promise<TResource> {
  // The filters combine with AND: the narrowest one bounds every row listed.
  if (filters.project_id !== undefined) {
    const project = await requireProject(db, ownerId, filters.project_id);
    return { kind: "project", projectId: project.id, businessId: project.businessId };
  }
  if (filters.business_id !== undefined) {
    const business = await requireBusiness(db, ownerId, filters.business_id);
    return { kind: "business", businessId: business.id };
  }
  if (filters.personal === true) return { kind: "personal" };
  return { kind: "owner" };
}

/** An event's own scope, in grant terms. */
export function eventResource(row: { businessId: string | null; projectId: string | null; personal: boolean }): TResource {
  if (row.projectId !== null && row.businessId !== null) {
    return { kind: "project", projectId: row.projectId, businessId: row.businessId };
  }
  if (row.businessId !== null) return { kind: "business", businessId: row.businessId };
  if (row.personal) return { kind: "personal" };
  return { kind: "owner" };
}
