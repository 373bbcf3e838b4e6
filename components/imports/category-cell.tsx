"use client";
// The preview's Category column (issue 14): the row's category, from the file or from the
// owner's first matching rule, editable before confirm. Edits are kept by external_id and sent
// with the confirm (`categories`); a rejected row has nothing to edit.
import type { TImportPreviewRow } from "@/server/imports/import.schema";

export type TCategoryEdits = ReadonlyMap<string, string>;

/** The confirm's `categories` for the rows the owner changed. */
export function categoriesInput(edits: TCategoryEdits): { external_id: string; category: string | null }[] | undefined {
  if (edits.size === 0) return undefined;
  return [...edits].map(([externalId, category]) => ({ external_id: externalId, category: category.trim() || null }));
}

export function CategoryCell(props: {
  row: TImportPreviewRow;
  edits: TCategoryEdits;
  onEdit: (externalId: string, category: string) => void;
}) {
  const { row } = props;
  if (row.status === "rejected" || !row.external_id) return <span className="muted">—</span>;
  const externalId = row.external_id;
  return (
    <input
      className="input input-compact"
      aria-label={`Category of row ${row.row}`}
      maxLength={100}
      autoComplete="off"
      placeholder="None"
      value={props.edits.get(externalId) ?? row.category ?? ""}
      onChange={(event) => props.onEdit(externalId, event.target.value)}
    />
  );
}
