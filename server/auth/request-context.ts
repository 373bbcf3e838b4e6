// The facts of one request: its id, the client's address and user agent, the clock it runs
// at and a logger that names it. Read ONCE where a request enters (the /v1 REST layer, the
// panel's tRPC endpoint, a server component's caller) and passed down, never derived again.
import { randomUUID } from "node:crypto";
import { boundLog, type TLogger } from "../log";
import { systemClock, type TClock } from "../shared/clock";
import { clientIp } from "./client-ip";

export type TRequestContext = {
  /** `req_` + 32 hex digits; also in the answer's X-Request-Id and body. */
  requestId: string;
  /** Where the call came from (client-ip.ts): IP allow-lists, per-IP limits, sessions, audit. */
  ip: string | null;
  /** The client's User-Agent (recorded on sessions). */
  userAgent: string | null;
  /** The time the request runs at (tests pass a clock they set). */
  clock: TClock;
  /** Every line it writes carries request_id. */
  log: TLogger;
};

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "")}`;
}

export function createRequestContext(headers: Headers, options: { clock?: TClock; requestId?: string } = {}): TRequestContext {
  const requestId = options.requestId ?? newRequestId();
  return {
    requestId,
    ip: clientIp(headers),
    userAgent: headers.get("user-agent"),
    clock: options.clock ?? systemClock,
    log: boundLog({ request_id: requestId }),
  };
}
