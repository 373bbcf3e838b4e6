// One table of every /v1 operation (tRPC procedures with OpenAPI meta, and plain routes),
// matched with literal segments winning over parameters: /v1/agents/me is not
// /v1/agents/{id}. The procedures' routes come from their meta, read with trpc-to-openapi's
// exported helpers, the same meta its generator documents: there is no second table to agree with.
import type { AnyRouter } from "@trpc/server";
import type { z } from "zod";
import { forEachOpenApiProcedure, getInputOutputParsers, normalizePath, type OpenApiProcedure } from "trpc-to-openapi";
import type { TTransactionLimits } from "../db/transaction";
import type { TAccessRule, TDeprecation, TFileFormat, TOtherSuccess, TProcedureMeta } from "../trpc/meta";
import type { THttpMethod, TPlainRoute } from "./plain-route";

export type TRoute = {
  method: THttpMethod;
  path: string;
  access: TAccessRule;
  successStatus: number;
  otherSuccess?: readonly TOtherSuccess[];
  idempotency: "required" | "exempt";
  experimental: boolean;
  deprecation?: TDeprecation;
  secretInResponse?: boolean;
  maxBodyBytes?: number;
  transaction?: TTransactionLimits;
  /** Cross-origin calls allowed from LANDING_ORIGIN (cors.ts). */
  cors?: "landing";
  /** The files a procedure answers besides JSON (?format=; its meta's `files`). */
  files?: readonly TFileFormat[];
  renderFile?: TProcedureMeta["renderFile"];
  /**
   * A rule the input enforces in a refinement (exactly one scope, a field required for every case
   * the operation reaches), declared in JSON Schema in its `.meta()`: the document's request body carries it.
   */
  bodyRules?: Record<string, unknown>;
  target: { kind: "procedure"; procedurePath: string } | { kind: "plain"; route: TPlainRoute };
};

type TCompiled = { route: TRoute; regex: RegExp; rank: number[] };

export type TRouteMatch = { route: TRoute; params: Record<string, string> };

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
export const isWriteMethod = (method: string) => WRITE_METHODS.has(method);

function compile(route: TRoute): TCompiled {
  const segments = route.path.split("/").filter(Boolean);
  const pattern = segments
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      return param ? `(?<${param[1]}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return {
    route,
    regex: new RegExp(`^/${pattern}/?$`),
    // Segment by segment, a literal (0) sorts before a parameter (1).
    rank: segments.map((segment) => (segment.startsWith("{") ? 1 : 0)),
  };
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * The router's procedures by dotted path, from its public record: a tRPC router carries its
 * procedures (functions) and sub-routers (objects) as its own properties, beside `_def` and
 * `createCaller`, which are not procedures.
 */
function procedureRecord(
  record: object,
  prefix = "",
  out: Record<string, OpenApiProcedure> = {},
): Record<string, OpenApiProcedure> {
  for (const [key, value] of Object.entries(record)) {
    if (key === "_def" || key === "createCaller") continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "function") out[path] = value as OpenApiProcedure;
    else if (typeof value === "object" && value !== null) procedureRecord(value, path, out);
  }
  return out;
}

/** A procedure as other doors need it (the MCP companion's tools): its meta and its input schema. */
export type TOperationDefinition = { meta: TProcedureMeta; input: z.ZodType | undefined };

/**
 * The router's /v1 procedures by path, with their meta and input, read with trpc-to-openapi's
 * exported helpers as routesFromRouter reads them (no router._def).
 */
export function operationDefinitions(router: AnyRouter): Record<string, TOperationDefinition> {
  const definitions: Record<string, TOperationDefinition> = {};
  forEachOpenApiProcedure<TProcedureMeta>(procedureRecord(router), ({ path, procedure, meta }) => {
    const { inputParser, hasInputsDefined } = getInputOutputParsers(procedure);
    // trpc-to-openapi types its parsers from zod/v4, the same zod the project imports as "zod".
    definitions[path] = { meta, input: hasInputsDefined ? (inputParser as unknown as z.ZodType) : undefined };
  });
  return definitions;
}

/** JSON Schema keywords of an input's own `.meta()` that the generator drops (it keeps only title, description, examples). */
const BODY_RULES = ["oneOf", "anyOf", "not", "required"] as const;

/**
 * Every procedure the OpenAPI document documents, as a route, read once through
 * trpc-to-openapi's exported helpers (the same walk its generator makes): the meta the procedure
 * declares, its path as the generator normalises it, and the body rules its input declares.
 */
export function routesFromRouter(router: AnyRouter): TRoute[] {
  const routes: TRoute[] = [];
  forEachOpenApiProcedure<TProcedureMeta>(procedureRecord(router), ({ path: procedurePath, procedure, meta }) => {
    if (!meta.access) throw new Error(`Procedure ${procedurePath} declares no access rule`);
    const inputMeta = getInputOutputParsers(procedure).inputParser.meta() as Record<string, unknown> | undefined;
    const bodyRules = Object.fromEntries(
      BODY_RULES.filter((key) => inputMeta?.[key] !== undefined).map((key) => [key, inputMeta![key]]),
    );
    routes.push({
      method: meta.openapi.method,
      path: normalizePath(meta.openapi.path),
      access: meta.access,
      successStatus: meta.successStatus ?? 200,
      otherSuccess: meta.otherSuccess,
      idempotency: meta.idempotency ?? "required",
      experimental: meta.experimental ?? false,
      deprecation: meta.deprecation,
      secretInResponse: meta.secretInResponse ?? false,
      transaction: meta.transaction,
      cors: meta.cors,
      files: meta.files,
      renderFile: meta.renderFile,
      ...(Object.keys(bodyRules).length > 0 ? { bodyRules } : {}),
      target: { kind: "procedure", procedurePath },
    });
  });
  return routes;
}

export function routesFromPlain(plain: TPlainRoute[]): TRoute[] {
  return plain.map((route) => ({
    method: route.method,
    path: route.path,
    access: route.access,
    successStatus: 200,
    idempotency: route.idempotency ?? "required",
    experimental: route.experimental ?? false,
    deprecation: route.deprecation,
    secretInResponse: route.secretInResponse ?? false,
    maxBodyBytes: route.maxBodyBytes,
    transaction: route.transaction,
    cors: route.cors,
    target: { kind: "plain", route },
  }));
}

/** Non-empty segments: a route's pattern only matches paths with as many as it has. */
function segmentCount(pathname: string): number {
  let count = 0;
  for (let i = 0; i < pathname.length; i++) {
    if (pathname[i] !== "/" && (i === 0 || pathname[i - 1] === "/")) count++;
  }
  return count;
}

export class RouteTable {
  /** Compiled routes by segment count, each list in rank order (literal segments first). */
  private readonly compiled = new Map<number, TCompiled[]>();

  constructor(readonly routes: TRoute[]) {
    const seen = new Set<string>();
    for (const route of routes) {
      const id = `${route.method} ${route.path}`;
      if (seen.has(id)) throw new Error(`Two operations for ${id}`);
      seen.add(id);
    }
    for (const entry of routes.map(compile).sort((a, b) => compareRank(a.rank, b.rank))) {
      const sameLength = this.compiled.get(entry.rank.length) ?? [];
      sameLength.push(entry);
      this.compiled.set(entry.rank.length, sameLength);
    }
  }

  /** The route, or the methods the path does have (for 405), or nothing (404). */
  match(method: string, pathname: string): TRouteMatch | { allowed: string[] } | null {
    const allowed: string[] = [];
    for (const { route, regex } of this.compiled.get(segmentCount(pathname)) ?? []) {
      const found = regex.exec(pathname);
      if (!found) continue;
      if (route.method === method) return { route, params: { ...found.groups } };
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : null;
  }
}
