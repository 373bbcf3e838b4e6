import { router } from "../trpc/init";
import { findAuditEntriesRoute } from "./find-audit-entries";

export const auditRouter = router({ find: findAuditEntriesRoute });
