// The built-in passport templates (pinned-wave2 §3.4): a passport to start from and the grants
// such an agent usually needs. Applying one fills the passport; the grants stay suggestions
// until the owner grants them (PATCH /v1/agents/{id} or an approved permission request).
import type { TPassportContent, TPassportTemplate, TSuggestedGrant } from "./passport.schema";

const NO_CONSTRAINTS: TPassportContent["constraints"] = {
  max_daily_spend_minor: null,
  currency: null,
  businesses: [],
  notes: null,
};

const grant = (scope: TSuggestedGrant["scope"], level: TSuggestedGrant["level"]): TSuggestedGrant => ({
  scope,
  level,
  daily_limit_minor: null,
  monthly_limit_minor: null,
  currency: null,
  over_limit: "approval",
});

export const PASSPORT_TEMPLATES: readonly TPassportTemplate[] = [
  {
    id: "bookkeeper",
    name: "Bookkeeping assistant",
    description: "Keeps the books tidy: reads the ledger, spots uncategorised or duplicate entries and explains the numbers.",
    passport: {
      purpose: "Keep the owner's books accurate and explain where the money went.",
      responsibilities: [
        "Review new events and point out uncategorised, duplicate or unusual entries",
        "Summarise revenue, expenses and net for a business or the personal scope",
        "Check subscriptions for charges that changed or are no longer used",
      ],
      allowed_actions: ["Read events, subscriptions and financial summaries", "Record decisions with their reasoning"],
      constraints: NO_CONSTRAINTS,
      escalation: "Ask the owner before anything is changed; report anything that looks like fraud or a missed payment at once.",
    },
    suggested_grants: [grant("finances:observe", "recommend")],
  },
  {
    id: "ads_optimizer",
    name: "Ad-spend optimiser",
    description: "Moves daily ad budgets towards the campaigns that pay back, within the limits the owner grants.",
    passport: {
      purpose: "Get more revenue from the ad budget by moving daily budgets between campaigns.",
      responsibilities: [
        "Watch ad spend against revenue per campaign",
        "Raise the budgets of campaigns that pay back and cut those that do not",
        "Record each budget change as a decision with the effect it expects",
      ],
      allowed_actions: ["Change daily ad budgets", "Read financial summaries and ad reports", "Record decisions"],
      constraints: NO_CONSTRAINTS,
      escalation: "Ask for approval above the daily limit; stop and tell the owner when spend runs ahead of revenue for 3 days.",
    },
    suggested_grants: [grant("ads", "execute"), grant("finances:observe", "recommend")],
  },
  {
    id: "forecaster",
    name: "Forecaster",
    description: "Projects cash and runway from the ledger, subscriptions and plans, and flags what changes the outlook.",
    passport: {
      purpose: "Tell the owner where cash and runway are heading and why.",
      responsibilities: [
        "Forecast cash for the next 30 and 90 days",
        "Explain the largest commitments and run-rate changes",
        "Simulate changes the owner is considering",
      ],
      allowed_actions: ["Read forecasts, summaries and commitments", "Run simulations", "Record decisions"],
      constraints: NO_CONSTRAINTS,
      escalation: "Tell the owner when the forecast shows cash running out within 90 days.",
    },
    suggested_grants: [grant("finances:observe", "recommend"), grant("forecast:observe", "recommend")],
  },
  {
    id: "cash_guardian",
    name: "Cash guardian",
    description: "Watches free capital and upcoming charges so the owner is never surprised by a low balance.",
    passport: {
      purpose: "Keep enough cash free for what is committed and warn early when it is not.",
      responsibilities: [
        "Compare free capital with upcoming charges and reservations",
        "Warn before a balance is forecast to go negative",
        "Suggest which subscriptions or reservations to release",
      ],
      allowed_actions: ["Read cash, forecasts and commitments", "Run simulations", "Record decisions"],
      constraints: NO_CONSTRAINTS,
      escalation: "Alert the owner the same day free capital is forecast to go below zero.",
    },
    suggested_grants: [grant("finances:observe", "recommend"), grant("forecast:observe", "recommend")],
  },
];

export const PASSPORT_TEMPLATE_IDS = PASSPORT_TEMPLATES.map((template) => template.id);

export function findPassportTemplate(id: string): TPassportTemplate | undefined {
  return PASSPORT_TEMPLATES.find((template) => template.id === id);
}
