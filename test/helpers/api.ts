// Calls the real /v1 REST layer in process (no mocks): a Request in, a Response out, on a real
// database. Writes get a fresh Idempotency-Key unless a test sets one.
import { randomUUID } from "node:crypto";
import type { AnyRouter } from "@trpc/server";
import { SOCKET_ADDRESS_HEADER } from "../../server/auth/client-ip";
import { resetEnvForTests } from "../../server/env";
import type { TClock } from "../../server/shared/clock";
import { createV1Handler } from "../../server/rest/v1";
import type { TRestHandler } from "../../server/rest/rest-handler";
import { contractChecked } from "./contract-check";
import { createTestDatabase, type TTestDatabase } from "./database";

export const OWNER_TOKEN = "test-static-owner-token-0123456789";
/** 32 bytes (base64url) for secrets at rest, so no test writes a key file. */
export const TEST_ENCRYPTION_KEY = "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcyEhISE";

export type TApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export type TCallOptions = {
  body?: unknown;
  /** A raw body sent as is (for malformed JSON tests). */
  rawBody?: string;
  /** Bearer token; null sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
  /** Idempotency-Key; null sends none. Default: a fresh key on writes. */
  idempotencyKey?: string | null;
  /**
   * The TCP peer's address, as the server entry stamps it (server/auth/client-ip.ts). Default:
   * none, so the REST layer sees an unknown address (one shared per-IP budget).
   */
  clientIp?: string;
};

export type TTestApi = {
  db: TTestDatabase["prisma"];
  database: TTestDatabase;
  handler: TRestHandler;
  call: <T = any>(method: string, path: string, options?: TCallOptions) => Promise<TApiResponse<T>>;
  close: () => Promise<void>;
};

let clientIps = 0;

/** A client address no other call of this process used (198.18.0.0/15, set aside for tests). */
export function freshClientIp(): string {
  clientIps += 1;
  return `198.${18 + (Math.floor(clientIps / 65536) % 2)}.${Math.floor(clientIps / 256) % 256}.${clientIps % 256}`;
}

export function applyTestEnv(env: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTests();
}

export async function createTestApi(
  options: { env?: Record<string, string>; router?: AnyRouter; database?: TTestDatabase; clock?: TClock } = {},
): Promise<TTestApi> {
  applyTestEnv({
    AUTH_MODE: "static",
    STATIC_OWNER_TOKEN: OWNER_TOKEN,
    STATIC_OWNER_EMAIL: "owner@example.test",
    RATE_LIMIT_PER_MINUTE: "100000",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...options.env,
  });
  const database = options.database ?? (await createTestDatabase());
  // Every answer is checked against the handler's own /v1/openapi.json (contract-check.ts).
  const handler = contractChecked(
    createV1Handler({ router: options.router, getDb: async () => database.prisma, clock: options.clock }),
  );
  return {
    db: database.prisma,
    database,
    handler,
    call: (method, path, callOptions) => callApi(handler, method, path, callOptions),
    close: () => database.close(),
  };
}

export async function callApi<T = any>(
  handler: TRestHandler,
  method: string,
  path: string,
  options: TCallOptions = {},
): Promise<TApiResponse<T>> {
  const headers = requestHeaders(options, !["GET", "HEAD", "OPTIONS"].includes(method));
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return readResponse<T>(await handler(new Request(`http://localhost${path}`, { method, headers, body })));
}

/** The bearer (the static owner's unless the call says otherwise) and, on writes, an Idempotency-Key. */
function requestHeaders(options: Omit<TCallOptions, "body" | "rawBody">, isWrite: boolean): Headers {
  const headers = new Headers(options.headers);
  const token = options.token === undefined ? OWNER_TOKEN : options.token;
  if (token !== null && !headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
  if (options.clientIp !== undefined) headers.set(SOCKET_ADDRESS_HEADER, options.clientIp);
  const key = options.idempotencyKey === undefined ? (isWrite ? randomUUID() : null) : options.idempotencyKey;
  if (key !== null) headers.set("idempotency-key", key);
  return headers;
}

/** The status, headers, text and (when it is JSON) parsed body of an answer. */
async function readResponse<T>(response: Response): Promise<TApiResponse<T>> {
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * A multipart/form-data call (the statement upload): `fields` become text fields, `file` a
 * file field named "file". The Request sets the boundary header itself.
 */
export async function callMultipart<T = any>(
  handler: TRestHandler,
  path: string,
  form: { fields?: Record<string, string>; file?: { bytes: Uint8Array | string; name?: string; type?: string } },
  options: Omit<TCallOptions, "body" | "rawBody"> = {},
): Promise<TApiResponse<T>> {
  const data = new FormData();
  for (const [name, value] of Object.entries(form.fields ?? {})) data.append(name, value);
  if (form.file) {
    const bytes = typeof form.file.bytes === "string" ? new TextEncoder().encode(form.file.bytes) : form.file.bytes;
    data.append("file", new Blob([bytes as BlobPart], { type: form.file.type ?? "text/csv" }), form.file.name ?? "statement.csv");
  }
  const headers = requestHeaders(options, true);
  // Serialized first, so the REST layer sees a Content-Length like a real client's.
  const request = new Request(`http://localhost${path}`, { method: "POST", body: data });
  const body = new Uint8Array(await request.arrayBuffer());
  headers.set("content-type", request.headers.get("content-type")!);
  headers.set("content-length", String(body.byteLength));
  return readResponse<T>(await handler(new Request(`http://localhost${path}`, { method: "POST", headers, body })));
}
