// The client's IP address: THE one function every caller uses (IP allow-lists of agents,
// per-IP limits, sessions' and the audit log's address).
//
// A route handler gets a web Request without the socket, and Next.js only fills
// X-Forwarded-For with the socket address when the client did not send one, so neither tells
// the real peer apart from a forged header. The server entry (scripts/serve.mjs) therefore
// removes any incoming copy of SOCKET_ADDRESS_HEADER and sets it from the socket; this module
// trusts that header, and X-Forwarded-For only as far as TRUST_PROXY says:
//   unset (or 0)  the socket address; X-Forwarded-For is ignored.
//   N             N proxies stand in front of the app, each appending the address it saw, so
//                 the N-th entry from the right of X-Forwarded-For is the client (fewer
//                 entries: the left-most). The usual rule (Express's `trust proxy` = N).
import ipaddr from "ipaddr.js";
import { getEnv } from "../env";

/** Set by the server entry from the TCP peer; never taken from the client. */
export const SOCKET_ADDRESS_HEADER = "x-fbo-socket-address";

export function clientIp(headers: Headers, trustProxy: number | undefined = getEnv().TRUST_PROXY): string | null {
  const socket = normalize(headers.get(SOCKET_ADDRESS_HEADER));
  if (!trustProxy) return socket;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (hops.length === 0) return socket;
  return normalize(hops[Math.max(0, hops.length - trustProxy)]!);
}

/** Canonical forms of the addresses seen lately: parsing one costs more than the rest of a request's routing. */
const normalized = new Map<string, string | null>();
const MAX_REMEMBERED = 1024;

/** A valid address in its canonical form (an IPv4 client seen on an IPv6 socket is IPv4), else null. */
function normalize(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const known = normalized.get(raw);
  if (known !== undefined) return known;
  if (normalized.size >= MAX_REMEMBERED) normalized.clear();
  const address = parse(raw);
  normalized.set(raw, address);
  return address;
}

function parse(raw: string): string | null {
  if (!ipaddr.isValid(raw)) return null;
  const address = ipaddr.parse(raw);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address().toString();
  }
  return address.toString();
}
