// Read-model pages: the API's refusal of a figure it cannot show exactly (422
// amount_out_of_range, details.field) becomes what the page shows instead of its figures
// (components/panel/figures-refused.tsx), never an error page; any other error is thrown as it was.
import type { TFiguresRefused } from "@/components/panel/figures-refused";
import { toAppError } from "@/server/errors/to-app-error";

export type TFigures<T> = { result: T; refused: null } | { result: null; refused: TFiguresRefused };

/** `load()`'s answer, or the figure the API refused to show. */
export async function loadFigures<T>(load: () => Promise<T>): Promise<TFigures<T>> {
  try {
    return { result: await load(), refused: null };
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code !== "amount_out_of_range") throw error;
    const field = (appError.details as { field?: unknown } | undefined)?.field;
    return { result: null, refused: { field: typeof field === "string" ? field : "" } };
  }
}
