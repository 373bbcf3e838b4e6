// The application's /v1 handler: the app router plus the plain routes, in the one REST layer.
import type { AnyRouter } from "@trpc/server";
import type { TDb } from "../db/client";
import type { TClock } from "../shared/clock";
import { importPlainRoutes } from "../imports/routes";
import { integrationPlainRoutes } from "../integrations/routes";
import { ledgerPlainRoutes } from "../ledger/routes";
import { reportPlainRoutes } from "../reports/routes";
import { appRouter } from "../router";
import { buildOpenApiDocument } from "./openapi";
import type { TPlainRoute } from "./plain-route";
import { createRestHandler, type TRestHandler } from "./rest-handler";
import { waitlistPlainRoutes } from "../waitlist/routes";
import { webhookRoutes } from "../webhooks/routes";

/** Plain routes of the domains (webhooks, imports, exports) join this list. */
const domainPlainRoutes: TPlainRoute[] = [
  ...integrationPlainRoutes,
  ...importPlainRoutes,
  ...ledgerPlainRoutes,
  ...reportPlainRoutes,
  ...webhookRoutes,
  ...waitlistPlainRoutes,
];

function openApiRoute(document: () => string): TPlainRoute {
  return {
    method: "GET",
    path: "/v1/openapi.json",
    // Static, opens no database: not counted per IP (server/rest/ip-limit.ts).
    access: { kind: "public", ipLimit: "none" },
    openapi: {
      summary: "This OpenAPI document",
      tags: ["Meta"],
      operationId: "getOpenApiDocument",
      responses: {
        "200": { description: "The OpenAPI 3.1 document", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
    handle: async () => ({
      status: 200,
      headers: { "Content-Type": "application/json; charset=utf-8" },
      kind: "raw",
      body: document(),
    }),
  };
}

export type TV1Options = {
  /** Tests add fixture procedures by passing a router that includes the app router. */
  router?: AnyRouter;
  getDb?: () => Promise<TDb>;
  clock?: TClock;
};

export function createV1Handler(options: TV1Options = {}): TRestHandler {
  const router = options.router ?? appRouter;
  let document: string | undefined;
  const plainRoutes: TPlainRoute[] = [
    ...domainPlainRoutes,
    openApiRoute(() => (document ??= JSON.stringify(buildOpenApiDocument(router, handler.routes.routes, plainRoutes)))),
  ];
  const handler = createRestHandler({ router, plainRoutes, getDb: options.getDb, clock: options.clock });
  return handler;
}

const globalForRest = globalThis as unknown as { v1Handler?: TRestHandler };

/** The process's handler, on the process's database. */
export function getV1Handler(): TRestHandler {
  globalForRest.v1Handler ??= createV1Handler();
  return globalForRest.v1Handler;
}
