import { describe, expect, it } from "vitest";
import type { TImportPreviewRow } from "@/server/imports/import.schema";
import { categoriesInput, editedRow } from "./category-cell";

const row = { row: 1, status: "new", external_id: "x1", category: "Ads" } as TImportPreviewRow;

describe("the preview's row edits", () => {
  it("keeps the previewed category when only the project is chosen, and sends the project", () => {
    const edit = editedRow(row, undefined, { project_id: "11111111-1111-4111-8111-111111111111" });
    expect(categoriesInput(new Map([["x1", edit]]))).toEqual([
      { external_id: "x1", category: "Ads", project_id: "11111111-1111-4111-8111-111111111111" },
    ]);
  });

  it("sends no project when only the category changed, and null for No project", () => {
    const category = editedRow(row, undefined, { category: "  " });
    expect(categoriesInput(new Map([["x1", category]]))).toEqual([{ external_id: "x1", category: null }]);
    const none = editedRow(row, category, { project_id: null });
    expect(categoriesInput(new Map([["x1", none]]))).toEqual([{ external_id: "x1", category: null, project_id: null }]);
    expect(categoriesInput(new Map())).toBeUndefined();
  });
});
