// One delivery attempt to the owner's notification webhook (pinned-wave2.md §4.4). The URL is
// checked again before every attempt (its DNS may have changed since it was saved), and the
// request connects to the address that check approved: node's resolver is replaced by one that
// answers with it, so nothing resolves the name a second time (DNS rebinding). The URL's host stays
// the Host header and the TLS server name, so certificates are still checked against the name.
// Redirects are never followed (a 3xx could point anywhere, including inside our network), the
// attempt is bounded by one deadline, the response body is barely read, and every network
// failure comes back as an outcome for the delivery job to record, never as an exception.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { signWebhook } from "./signature";
import { checkWebhookUrl, type TCheckedTarget, type TUrlPolicyOptions } from "./url-policy";

/** The `error` of a failed attempt, besides `http_<status>` for a non-2xx, non-3xx answer. */
export const DELIVERY_ERRORS = [
  "redirect_refused",
  "timeout",
  "address_refused",
  "dns_failed",
  "connection_failed",
  "tls_failed",
] as const;
export type TDeliveryError = (typeof DELIVERY_ERRORS)[number] | `http_${number}`;

export type TDeliveryOutcome = { status: "delivered"; httpStatus: number } | { status: "failed"; error: string };

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_USER_AGENT = "finance-back-office-webhooks/1.0";

/** How much of a response is read before the connection is dropped: only the status matters. */
const MAX_RESPONSE_BYTES = 16 * 1024;

export type TSendWebhookInput = {
  url: string;
  secret: string;
  /** The event's JSON, fixed at creation; sent byte for byte and signed as is. */
  body: string;
  eventId: string;
  /** The attempt's time: X-Service-Timestamp is its Unix seconds. */
  now: Date;
  /** The whole attempt, DNS and connect included. */
  timeoutMs?: number;
} & TUrlPolicyOptions;

export async function sendWebhook(input: TSendWebhookInput): Promise<TDeliveryOutcome> {
  const { url, secret, body, eventId, now, timeoutMs = WEBHOOK_TIMEOUT_MS, allowHosts, lookup } = input;
  const deadline = Date.now() + timeoutMs;

  const checked = await beforeDeadline(checkWebhookUrl(url, { allowHosts, lookup }), timeoutMs);
  if (checked === "timeout") return failed("timeout");
  if (!checked.ok) {
    // A URL that fails scheme, credentials or not_absolute here passed the same check when it was
    // saved, so only a change of rules (e.g. OUTBOUND_ALLOW_HOSTS shrank) gets here: the URL is no
    // longer one we may call, which is what address_refused tells the owner. unresolvable is DNS.
    return failed(checked.rule === "unresolvable" ? "dns_failed" : "address_refused");
  }
  // An allow-listed name may pass the check without resolving; there is still nowhere to connect.
  if (checked.target.address === "") return failed("dns_failed");

  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    Host: checked.target.url.host,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body, "utf8")),
    "User-Agent": WEBHOOK_USER_AGENT,
    "X-Service-Timestamp": String(timestamp),
    "X-Service-Signature": signWebhook(secret, timestamp, body),
    "X-Service-Event-Id": eventId,
  };
  return post(checked.target, headers, body, Math.max(deadline - Date.now(), 1));
}

function failed(error: TDeliveryError): TDeliveryOutcome {
  return { status: "failed", error };
}

function outcomeOf(httpStatus: number): TDeliveryOutcome {
  if (httpStatus >= 200 && httpStatus < 300) return { status: "delivered", httpStatus };
  if (httpStatus >= 300 && httpStatus < 400) return failed("redirect_refused");
  return failed(`http_${httpStatus}`);
}

async function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([work, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

/** A resolver that answers every query with the checked address (node asks with `all` when it may try several). */
function pinnedLookup(target: TCheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function post(target: TCheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number) {
  const { url } = target;
  const secure = url.protocol === "https:";
  return new Promise<TDeliveryOutcome>((resolve) => {
    let settled = false;
    let tcpConnected = false;
    let tlsEstablished = false;
    const settle = (outcome: TDeliveryOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };

    const request = (secure ? https : http).request({
      method: "POST",
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      lookup: pinnedLookup(target),
      // A fresh connection per attempt: a pooled socket could still be connected to an address
      // checked for an earlier attempt.
      agent: false,
    });

    // The deadline covers connect, TLS, sending and the response; after the status is known it
    // only bounds the little draining that follows.
    const timer = setTimeout(() => {
      settle(failed("timeout"));
      request.destroy();
    }, timeoutMs);

    request.on("socket", (socket) => {
      socket.once("connect", () => (tcpConnected = true));
      socket.once("secureConnect", () => (tlsEstablished = true));
    });
    request.on("response", (response) => {
      settle(outcomeOf(response.statusCode ?? 0));
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) response.destroy();
      });
      response.on("error", () => undefined);
      response.on("close", () => clearTimeout(timer));
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      settle(failed(classifyError(error, { secure, tcpConnected, tlsEstablished })));
    });
    request.end(body, "utf8");
  });
}

const DNS_ERROR_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);
/** OpenSSL's verification codes (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE, …) and node's TLS ones. */
const TLS_ERROR_CODE =
  /^(EPROTO|ERR_TLS_.*|ERR_SSL_.*|HOSTNAME_MISMATCH|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|UNABLE_TO_.*|.*CERT.*)$/;

function classifyError(
  error: NodeJS.ErrnoException,
  phase: { secure: boolean; tcpConnected: boolean; tlsEstablished: boolean },
): TDeliveryError {
  const code = error.code ?? "";
  if (DNS_ERROR_CODES.has(code)) return "dns_failed";
  if (TLS_ERROR_CODE.test(code)) return "tls_failed";
  // Connected but no TLS session yet: the peer broke off the handshake (not a TLS server, or it
  // refused our hello).
  if (phase.secure && phase.tcpConnected && !phase.tlsEstablished) return "tls_failed";
  return "connection_failed";
}
