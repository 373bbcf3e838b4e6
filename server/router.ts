// The application router: every operation of the contract is one procedure in here. Each
// domain assembles its own verbs; this file only names the domains.
import { adBudgetChangesRouter } from "./ad-budget-changes/router";
import { agentEconomicsRouter } from "./agent-economics/router";
import { agentsRouter } from "./agents/router";
import { alertsRouter } from "./alerts/router";
import { approvalsRouter } from "./approvals/router";
import { auditRouter } from "./audit/router";
import { businessesRouter } from "./businesses/router";
import { cashRouter } from "./cash/router";
import { categoryRulesRouter } from "./category-rules/router";
import { decisionsRouter } from "./decisions/router";
import { fxRouter } from "./fx/router";
import { goalsRouter } from "./goals/router";
import { importsRouter } from "./imports/router";
import { integrationsRouter } from "./integrations/router";
import { ledgerRouter } from "./ledger/router";
import { meRouter } from "./me/router";
import { notificationsRouter } from "./notifications/router";
import { oauthRouter } from "./oauth/router";
import { passportsRouter } from "./passports/router";
import { plansRouter } from "./plans/router";
import { projectsRouter } from "./projects/router";
import { readModelsRouter } from "./read-models/router";
import { reportsRouter } from "./reports/router";
import { reservationsRouter } from "./reservations/router";
import { sessionsRouter } from "./sessions/router";
import { waitlistRouter } from "./waitlist/router";
import { simulationsRouter } from "./simulations/router";
import { subscriptionsRouter } from "./subscriptions/router";
import { router } from "./trpc/init";

export const appRouter = router({
  me: meRouter,
  fx: fxRouter,
  businesses: businessesRouter,
  projects: projectsRouter,
  sessions: sessionsRouter,
  agentEconomics: agentEconomicsRouter,
  agents: agentsRouter,
  passports: passportsRouter,
  approvals: approvalsRouter,
  audit: auditRouter,
  subscriptions: subscriptionsRouter,
  reservations: reservationsRouter,
  goals: goalsRouter,
  waitlist: waitlistRouter,
  cash: cashRouter,
  ledger: ledgerRouter,
  integrations: integrationsRouter,
  imports: importsRouter,
  alerts: alertsRouter,
  categoryRules: categoryRulesRouter,
  readModels: readModelsRouter,
  reports: reportsRouter,
  simulations: simulationsRouter,
  notifications: notificationsRouter,
  decisions: decisionsRouter,
  adBudgetChanges: adBudgetChangesRouter,
  plans: plansRouter,
  oauth: oauthRouter,
});

export type TAppRouter = typeof appRouter;
