// The reason an agent gives for what it asks (a write, a request): at least MIN_REASON_LENGTH
// characters, else 400 missing_reason naming the field.
import { AppError } from "../errors/app-error";

export const MIN_REASON_LENGTH = 3;

export function requireReason(reason: unknown): string {
  const text = typeof reason === "string" ? reason.trim() : "";
  if (text.length < MIN_REASON_LENGTH) {
    throw new AppError("missing_reason", undefined, {
      details: { issues: [{ path: "reason", message: `at least ${MIN_REASON_LENGTH} characters` }] },
    });
  }
  return text;
}
