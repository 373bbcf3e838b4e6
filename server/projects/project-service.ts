// Projects live inside a business; both carry the owner id so every query is tenant-scoped.
import { requireBusiness } from "../businesses/business-service";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import type { Project } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { archivedAtFor, withUniqueName, type TRecordStatus } from "../shared/unique-name";
import type { TProject, TUpdateProjectInput } from "./project.schema";

export function toProjectDto(row: Project): TProject {
  return {
    id: row.id,
    business_id: row.businessId,
    name: row.name,
    status: row.archivedAt ? "archived" : "active",
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function createProject(db: TDbOrTx, caller: TCaller, businessId: string, input: { name: string }) {
  await requireBusiness(db, caller.ownerId, businessId);
  return inTransaction(db, async (tx) => {
    const row = await withUniqueName("project", input.name, () =>
      tx.project.create({ data: { ownerId: caller.ownerId, businessId, name: input.name } }),
    );
    await auditCaller(tx, caller, "project.created", { type: "project", id: row.id });
    return toProjectDto(row);
  });
}

export async function findProjects(
  db: TDbOrTx,
  ownerId: string,
  businessId: string,
  query: TPageQuery & { status?: TRecordStatus },
) {
  await requireBusiness(db, ownerId, businessId);
  const args = pageArgs(query);
  const status = query.status === undefined ? {} : { archivedAt: query.status === "archived" ? { not: null } : null };
  const rows = await db.project.findMany({ ...args, where: { ownerId, businessId, ...status, ...args.where } });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: kept.map(toProjectDto), page };
}

export async function requireProject(db: TDbOrTx, ownerId: string, projectId: string): Promise<Project> {
  const row = await db.project.findFirst({ where: { id: projectId, ownerId } });
  if (!row) throw AppError.notFound("project");
  return row;
}

export async function getProject(db: TDbOrTx, ownerId: string, projectId: string) {
  return toProjectDto(await requireProject(db, ownerId, projectId));
}

export async function updateProject(db: TDbOrTx, caller: TCaller, projectId: string, input: TUpdateProjectInput) {
  return inTransaction(db, async (tx) => {
    const current = await requireProject(tx, caller.ownerId, projectId);
    // Archiving an archived project keeps the day it was archived.
    const archive = input.status === "archived" && current.archivedAt ? {} : archivedAtFor(input.status, caller.now);
    await withUniqueName("project", input.name, () =>
      tx.project.updateMany({ where: { id: projectId, ownerId: caller.ownerId }, data: { name: input.name, ...archive } }),
    );
    await auditCaller(
      tx,
      caller,
      "project.updated",
      { type: "project", id: projectId },
      { fields: Object.keys(input), ...(input.status ? { status: input.status } : {}) },
    );
    return getProject(tx, caller.ownerId, projectId);
  });
}
