"use client";
// The preview's Category column (issue 14): the row's category, from the file or from the
// owner's first matching rule, and its project (a rule may set one), both editable before
// confirm. Edits are kept by external_id and sent with the confirm (`categories`); a rejected
// row has nothing to edit.
import type { TImportPreviewRow } from "@/server/imports/import.schema";

/** An edited row: its category, and its project when the owner chose one (null: no project). */
export type TRowEdit = { category: string; project_id?: string | null };
export type TCategoryEdits = ReadonlyMap<string, TRowEdit>;
export type TProjectOption = { id: string; name: string };

/** The confirm's `categories` for the rows the owner changed. */
export function categoriesInput(
  edits: TCategoryEdits,
): { external_id: string; category: string | null; project_id?: string | null }[] | undefined {
  if (edits.size === 0) return undefined;
  return [...edits].map(([externalId, edit]) => ({
    external_id: externalId,
    category: edit.category.trim() || null,
    ...(edit.project_id !== undefined ? { project_id: edit.project_id } : {}),
  }));
}

/** The row's edit with `change` applied, starting from what the preview shows. */
export function editedRow(row: TImportPreviewRow, current: TRowEdit | undefined, change: Partial<TRowEdit>): TRowEdit {
  return { category: row.category ?? "", ...current, ...change };
}

export function CategoryCell(props: {
  row: TImportPreviewRow;
  edits: TCategoryEdits;
  /** The business's active projects; none: no project select. */
  projects: readonly TProjectOption[];
  onEdit: (externalId: string, change: Partial<TRowEdit>) => void;
}) {
  const { row } = props;
  if (row.status === "rejected" || !row.external_id) return <span className="muted">—</span>;
  const externalId = row.external_id;
  const edit = props.edits.get(externalId);
  const project = edit?.project_id !== undefined ? edit.project_id : (row.project_id ?? null);
  // A rule's project that is archived meanwhile is still shown, so the select tells the truth.
  const options =
    project && !props.projects.some((p) => p.id === project)
      ? [...props.projects, { id: project, name: "A project" }]
      : props.projects;
  return (
    <div className="category-cell">
      <input
        className="input input-compact"
        aria-label={`Category of row ${row.row}`}
        maxLength={100}
        autoComplete="off"
        placeholder="None"
        value={edit?.category ?? row.category ?? ""}
        onChange={(event) => props.onEdit(externalId, { category: event.target.value })}
      />
      {options.length > 0 ? (
        <select
          className="select input-compact"
          aria-label={`Project of row ${row.row}`}
          value={project ?? ""}
          onChange={(event) => props.onEdit(externalId, { project_id: event.target.value || null })}
        >
          <option value="">No project</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      ) : null}
    </div>
  );
}
