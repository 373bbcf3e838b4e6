import type { TProcedureMeta } from "../trpc/meta";
import { ZAgentMeRequest, ZAgentMeResponse } from "./agent-me.schema";

export const getAgentMeMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/agents/me",
    tags: ["Agents"],
    summary: "Who the caller is here, and what it may do",
    description: [
      'For an agent (any live agent, no scope needed): `{ actor, access: "grants", agent, passport, grants, resource, owner, contract_version }`: its record (no token), its passport (version 0 when never set), its grants each with `today` and `this_month` (limit, used, left and when the counter resets; null when the grant has no such limit, so nothing is counted), its owner\'s id, base_currency, timezone and plan. For the owner: `{ actor, access: "all", agent: null, passport: null, grants: null, resource, contract_version }`.',
      "",
      "`?resource` (`business:<id>`, `project:<id>`, `personal`, `*`) keeps per scope only the most specific grant covering it (project ⊂ its business ⊂ `*`; personal ⊂ `*`; the owner as a whole: `*` only); malformed → 400, an unknown or another owner's business or project → 404.",
      "",
      '`?format=markdown` answers `data: { format: "markdown", markdown }`: the same facts as prompt-ready text under `# <name>`, `## Passport`, `## Grants` (stable for the same facts; a typical agent\'s is under 4,000 characters). Other formats than json (the default) and markdown → 400.',
      "",
      "Limits count per UTC day and UTC month. The literal `me` is this operation, never an agent id.",
    ].join("\n"),
  },
  experimental: true,
};
export { ZAgentMeRequest as ZGetAgentMeRequest, ZAgentMeResponse as ZGetAgentMeResponse };
