import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZPassport } from "./passport.schema";

export const PASSPORT_RULES =
  "A passport describes the agent (purpose, responsibilities, allowed actions, constraints, escalation); grants alone " +
  "enforce what it may do, and nothing in a passport grants or limits anything.";

export const getPassportMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/agents/{id}/passport",
    tags: ["Agents"],
    summary: "An agent's passport",
    description:
      `${PASSPORT_RULES} An agent whose passport was never set answers every field at its default with version 0 ` +
      "(template_id and updated_at null). Owner only: an agent calling answers 403 scope_denied (audited); another " +
      "owner's agent or an unknown id 404.",
  },
  experimental: true,
};
export const ZGetPassportRequest = ZIdParam;
export const ZGetPassportResponse = z.object({ data: ZPassport });
