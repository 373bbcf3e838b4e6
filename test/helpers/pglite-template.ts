// Where the pglite project's migrated data directory is kept (test/setup/pglite-template.ts).
import os from "node:os";
import path from "node:path";
import { templateName } from "./postgres";

export function pgliteTemplatePath(): string {
  return path.join(os.tmpdir(), `${templateName()}.pglite.tar`);
}
