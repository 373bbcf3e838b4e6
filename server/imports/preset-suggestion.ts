// The detected preset is a suggestion (issue 14): the preset whose column names best match
// the file's header, offered next to the one the owner chose, never applied silently.
import { headerKey, IMPORT_PRESETS, type TField, type TImportPreset } from "./presets";

export type TPresetSuggestion = { id: string; name: string };

/** The fields of a preset whose name list holds one of the header's names. */
function matchedFields(preset: TImportPreset, keys: ReadonlySet<string>): Set<TField> {
  const matched = new Set<TField>();
  for (const [field, names] of Object.entries(preset.columns) as [TField, readonly string[]][]) {
    if (names.some((name) => keys.has(headerKey(name)))) matched.add(field);
  }
  return matched;
}

/**
 * The preset of `presets` whose column names best match `header` (score: the number of its
 * fields with a name in the header; ties: the first in the list), among those that find at
 * least a date and an amount (or both debit and credit). null when that preset is the one in
 * use (`currentId`) or none qualifies.
 */
export function suggestPreset(
  header: readonly string[],
  currentId: string,
  presets: readonly TImportPreset[] = IMPORT_PRESETS,
): TPresetSuggestion | null {
  const keys = new Set(header.map(headerKey).filter((key) => key !== ""));
  let best: { preset: TImportPreset; score: number } | null = null;
  for (const preset of presets) {
    const matched = matchedFields(preset, keys);
    const usable = matched.has("date") && (matched.has("amount") || (matched.has("debit") && matched.has("credit")));
    if (!usable) continue;
    if (!best || matched.size > best.score) best = { preset, score: matched.size };
  }
  if (!best || best.preset.id === currentId) return null;
  return { id: best.preset.id, name: best.preset.name };
}
