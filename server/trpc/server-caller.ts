// The server components' way into the procedures: the same router, called in process with a
// context built from the panel cookie (no HTTP hop, no second implementation).
import { cache } from "react";
import { getPanelSession, requireOwnerSession, serverComponentRequestInfo } from "../auth/panel-session";
import { appRouter } from "../router";
import { createContext } from "./context";
import { createCallerFactory } from "./init";

const createCaller = createCallerFactory(appRouter);

export type TServerCaller = ReturnType<typeof createCaller>;

/** A caller for the current request as whoever the cookie says (public when signed out). */
export const getServerCaller = cache(async (): Promise<TServerCaller> => {
  const { db, actor } = await getPanelSession();
  return createCaller(createContext({ db, actor, ...(await serverComponentRequestInfo()) }));
});

/** A caller for panel pages: redirects to the sign-in page unless the owner is signed in. */
export const getOwnerCaller = cache(async (): Promise<TServerCaller> => {
  const { db, actor } = await requireOwnerSession();
  return createCaller(createContext({ db, actor, ...(await serverComponentRequestInfo()) }));
});
