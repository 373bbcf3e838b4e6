// Panel only: no `openapi` meta, so this procedure is not part of /v1 (the REST route table and
// the OpenAPI document list only procedures that declare one). GET /v1/goals is empty by
// contract; the panel's Goals page still lists the owner's goals through this.
import { ZListOf, ZPageQuery } from "../shared/pagination";
import { ZGoal } from "./goal.schema";

export const ZFindOwnerGoalsRequest = ZPageQuery;
export const ZFindOwnerGoalsResponse = ZListOf(ZGoal);
