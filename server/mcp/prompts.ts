// The MCP prompts (pinned-wave3 §2.3): the owner's common asks, each a message that names the
// tools to call and how to read their answers, so an assistant that never saw the contract
// answers them from the figures. The tools they name are the caller's own (tools.ts).
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { TMcpCaller } from "./tools";

export const PROMPT_NAMES = ["daily_brief", "can_i_afford", "what_did_my_agents_do"] as const;

const MONEY =
  "Amounts in the answers are integers in minor units (12345 with currency EUR is 123.45 EUR); say them as money in " +
  "the currency given, never as raw integers. If a tool answers an error (scope_denied: a grant does not cover it), " +
  "say what could not be read instead of guessing.";

const user = (text: string): GetPromptResult => ({ messages: [{ role: "user", content: { type: "text", text } }] });

export function registerPrompts(server: McpServer, caller: TMcpCaller): void {
  server.registerPrompt(
    "daily_brief",
    {
      title: "Daily brief",
      description: "Today's state of the money: what came in and went out, cash, runway, what waits for a decision.",
      argsSchema: {
        date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe("The day to brief (YYYY-MM-DD, the owner's timezone); default today."),
      },
    },
    ({ date }) =>
      user(
        `Give me the daily brief${date ? ` for ${date}` : ""}. Call get_daily_brief${date ? ` with date ${date}` : ""} ` +
          "and report its headline, yesterday's and the month's in and out, cash and runway, and the approvals waiting " +
          "(the owner decides them in the panel's Approvals page). Then name the one thing that most needs attention, " +
          "from its attention items. If get_daily_brief is not available to you, use get_overview, or " +
          `get_business_context for each business you may read. ${MONEY}`,
      ),
  );
  server.registerPrompt(
    "can_i_afford",
    {
      title: "Can I afford it?",
      description: "Whether a purchase or commitment fits, against free capital and the cash forecast.",
      argsSchema: {
        what: z.string().max(200).describe("What the money is for (e.g. 'a new laptop', 'a 6-month ad campaign')."),
        amount: z
          .string()
          .regex(/^\d+(\.\d+)?$/)
          .describe("The amount, as a decimal number in the currency (e.g. 1499.00)."),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .describe("ISO 4217 currency of the amount (e.g. EUR)."),
        business_id: z.string().optional().describe("The business that would pay (its id); omit for the personal finances."),
      },
    },
    ({ what, amount, currency, business_id }) => {
      const scope = business_id ? `business_id ${business_id}` : "personal=true";
      return user(
        `Can I afford ${what} for ${amount} ${currency}? Call get_free_capital with ${scope} (horizon_days 90) and ` +
          `${business_id ? `get_business_forecast with id ${business_id}` : "get_personal_forecast"} (horizon 90). ` +
          "Convert the amount to minor units of the answer's currency before comparing (run_simulation can model a " +
          "one-off or recurring cost against the forecast when it is available to you). Answer yes, no or only if, with " +
          `the free capital before and after, and the lowest forecast balance in the horizon. ${MONEY}`,
      );
    },
  );
  server.registerPrompt(
    "what_did_my_agents_do",
    {
      title: "What did my agents do?",
      description: "The agents' actions over a period: writes, approvals, money moved and outcomes.",
      argsSchema: {
        from: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe("First day (YYYY-MM-DD); default 30 days ago."),
        to: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe("Last day (YYYY-MM-DD); default today."),
      },
    },
    ({ from, to }) => {
      const period = from || to ? ` from ${from ?? "30 days ago"} to ${to ?? "today"}` : " over the last 30 days";
      return user(
        caller.type === "owner"
          ? `What did my agents do${period}? Call find_agents_economics for every agent's ` +
              "writes (executed, pending, approved, rejected), money moved and outcomes, then approvals_find for what waits " +
              "for my decision and audit_find for notable refusals (access.denied). Summarise per agent, biggest money " +
              `first, and list what waits for me. ${MONEY}`
          : `What did I do${period}? Call get_my_economics for my writes (executed, pending, approved, rejected), ` +
              `the money I moved and my outcomes, and get_decision_review for decisions that await a review. ${MONEY}`,
      );
    },
  );
}
