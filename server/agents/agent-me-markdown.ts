// agents/me as prompt-ready markdown (`?format=markdown`): `# <name>`, `## Passport`, `## Grants`.
// Deterministic (the same facts give the same text, so a snapshot holds) and short: a typical
// agent stays well under 4,000 characters. Amounts are exact decimals with their currency.
import { minorToMajor } from "../../lib/money";
import type { TAgentSelf, TGrantUsage, TGrantWithUsage, TOwnerSelf } from "./agent-me.schema";

/** One line: user text never breaks the list it is in. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

const money = (minor: number, currency: string | null) =>
  currency ? `${minorToMajor(minor, currency)} ${currency}` : `${minor} (minor units)`;

function resourceText(resource: string, names: Map<string, string>): string {
  if (resource === "*") return "everything (`*`)";
  if (resource === "personal") return "the personal finances (`personal`)";
  const [kind] = resource.split(":");
  const name = names.get(resource);
  return name ? `${kind} "${oneLine(name)}" (\`${resource}\`)` : `\`${resource}\``;
}

function usageLine(label: string, usage: TGrantUsage, currency: string | null): string {
  return (
    `  - ${label} (${usage.period_start}, UTC): used ${money(usage.used_minor, currency)} of ` +
    `${money(usage.limit_minor, currency)}, ${money(usage.left_minor, currency)} left; resets ${usage.resets_at}.`
  );
}

function grantLines(grant: TGrantWithUsage, names: Map<string, string>): string[] {
  // Observe scopes only read: their level changes nothing an agent does with them.
  const level = grant.scope.endsWith(":observe")
    ? `reads what it covers (level ${grant.level})`
    : grant.level === "execute"
      ? "execute: writes run at once within the limits"
      : "recommend: writes are held for the owner's approval (202)";
  const lines = [`- \`${grant.scope}\` on ${resourceText(grant.resource, names)}; ${level}.`];
  if (grant.today) lines.push(usageLine("Today", grant.today, grant.currency));
  if (grant.this_month) lines.push(usageLine("This month", grant.this_month, grant.currency));
  if (grant.today || grant.this_month) {
    lines.push(
      grant.over_limit === "deny"
        ? "  - Over a limit: refused (403 limit_exceeded)."
        : "  - Over a limit: held for the owner's approval (202).",
    );
  } else if (grant.level === "execute") {
    lines.push("  - No spending limits.");
  }
  return lines;
}

function listOrNone(items: string[]): string[] {
  return items.length ? items.map((item) => `- ${oneLine(item)}`) : ["- None declared."];
}

function passportLines(self: TAgentSelf, names: Map<string, string>): string[] {
  const p = self.passport;
  if (p.version === 0) {
    return ["Not set yet: the owner has not described this agent. Act only within the grants below; ask the owner when unsure."];
  }
  const c = p.constraints;
  const constraints = [
    ...(c.max_daily_spend_minor !== null ? [`Spend at most ${money(c.max_daily_spend_minor, c.currency)} a day.`] : []),
    ...(c.businesses.length
      ? [`Work only on: ${c.businesses.map((id) => resourceText(`business:${id}`, names)).join(", ")}.`]
      : []),
    ...(c.notes ? [c.notes] : []),
  ];
  return [
    `Version ${p.version}${p.template_id ? `, from the template \`${p.template_id}\`` : ""}, updated ${p.updated_at}.`,
    "",
    `**Purpose:** ${p.purpose ? oneLine(p.purpose) : "None declared."}`,
    "",
    "**Responsibilities:**",
    ...listOrNone(p.responsibilities),
    "",
    "**Allowed actions:**",
    ...listOrNone(p.allowed_actions),
    "",
    "**Constraints:**",
    ...listOrNone(constraints),
    "",
    `**Escalation:** ${p.escalation ? oneLine(p.escalation) : "None declared: ask the owner."}`,
  ];
}

export function renderAgentMarkdown(self: TAgentSelf, names: Map<string, string>): string {
  const { agent, owner } = self;
  const intro = [
    `You are the agent "${oneLine(agent.name)}" (\`${agent.id}\`, ${agent.status}) acting for the owner \`${owner.id}\` ` +
      `through this service's API, contract ${self.contract_version}. Amounts are integer minor units; the owner's base ` +
      `currency is ${owner.base_currency}, time zone ${owner.timezone}, plan ${owner.plan}.`,
  ];
  if (agent.token_expires_at) intro.push(`Your token expires ${agent.token_expires_at}.`);
  const grants = self.grants.flatMap((grant) => grantLines(grant, names));
  return [
    `# ${oneLine(agent.name)}`,
    "",
    intro.join(" "),
    "",
    "## Passport",
    "",
    ...passportLines(self, names),
    "",
    "## Grants",
    "",
    self.resource === null
      ? "Grants decide what you may do; the passport only describes. Limits count per UTC day and month."
      : `Only the grants covering ${resourceText(self.resource, names)} (per scope, the most specific). Grants decide ` +
        "what you may do; the passport only describes. Limits count per UTC day and month.",
    "",
    ...(grants.length
      ? grants
      : [
          self.resource === null
            ? "None: you may read your own profile and ask the owner for data or permissions (POST /v1/permission-requests)."
            : "None covers it: ask the owner for a permission (POST /v1/permission-requests).",
        ]),
    "",
  ].join("\n");
}

export function renderOwnerMarkdown(self: TOwnerSelf): string {
  return [
    "# Owner",
    "",
    `You are calling as the owner (\`${self.actor.id}\`) through this service's API, contract ${self.contract_version}: ` +
      "every operation is open to you.",
    "",
    "## Passport",
    "",
    "Passports describe agents; the owner has none.",
    "",
    "## Grants",
    "",
    "None needed: the owner has all access.",
    "",
  ].join("\n");
}
