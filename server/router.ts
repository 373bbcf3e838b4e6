// The application router: every operation of the contract is one procedure in here. Each
// domain assembles its own verbs; this file only names the domains.
import { businessesRouter } from "./businesses/router";
import { meRouter } from "./me/router";
import { projectsRouter } from "./projects/router";
import { router } from "./trpc/init";

export const appRouter = router({
  me: meRouter,
  businesses: businessesRouter,
  projects: projectsRouter,
});

export type TAppRouter = typeof appRouter;
