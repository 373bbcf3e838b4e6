// The server components' way into the procedures: the same router, called in process with a
// context built from the panel cookie (no HTTP hop, no second implementation).
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getPanelSession, requireOwnerSession, SIGN_IN_PATH } from "../auth/panel-session";
import { createRequestContext } from "../auth/request-context";
import { toAppError } from "../errors/to-app-error";
import type { TMe } from "../me/me.schema";
import { appRouter } from "../router";
import { createContext } from "./context";
import { createCallerFactory } from "./init";

const createCaller = createCallerFactory(appRouter);

export type TServerCaller = ReturnType<typeof createCaller>;

/** A caller for the current request as whoever the cookie says (public when signed out). */
export const getServerCaller = cache(async (): Promise<TServerCaller> => {
  const { db, actor } = await getPanelSession();
  return createCaller(createContext(await renderRequestContext(), { db, actor }));
});

/** A caller for panel pages: redirects to the sign-in page unless the owner is signed in. */
export const getOwnerCaller = cache(async (): Promise<TServerCaller> => {
  const { db, actor } = await requireOwnerSession();
  return createCaller(createContext(await renderRequestContext(), { db, actor }));
});

/** The context of the request being rendered, made once per render like every request's. */
const renderRequestContext = cache(async () => createRequestContext(await headers()));

/**
 * The signed-in owner's profile (Me) for panel pages, once per request. The panel's caller is
 * always the owner, so this is Me's owner form; an owner who vanished behind a still-present
 * cookie signs in again.
 */
export const getOwnerMe = cache(async (): Promise<TMe> => {
  const caller = await getOwnerCaller();
  const me = await caller.me.get({}).catch((error: unknown) => {
    if (toAppError(error).status === 401) redirect(SIGN_IN_PATH);
    throw error;
  });
  if (!("email" in me.data)) redirect(SIGN_IN_PATH);
  return me.data;
});
