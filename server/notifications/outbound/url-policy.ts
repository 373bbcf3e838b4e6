// Which URLs the owner's notification webhook may reach (pinned-wave2.md §4.4). The server makes
// the request from inside our network, so an owner-supplied URL could aim it at the server itself,
// the cloud metadata service (169.254.169.254, 100.100.100.200, fd00:ec2::254) or a private network
// (SSRF). Every A/AAAA record must be public unicast, not just the first one, and the caller
// connects to the address checked here instead of resolving the name again: a name whose answer
// changes between the check and the connect (DNS rebinding) then cannot redirect the request.
// Checked at PUT (422 webhook_url_invalid with the rule) and again before each delivery attempt.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** The refusal reasons, in the order they are checked (`details.rule` of webhook_url_invalid). */
export const WEBHOOK_URL_RULES = ["not_absolute", "scheme", "credentials", "unresolvable", "address"] as const;
export type TWebhookUrlRule = (typeof WEBHOOK_URL_RULES)[number];

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Every A/AAAA record of a name (like `dns.promises.lookup(name, { all: true })`); rejects when it does not resolve. */
export type TLookup = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** `allowHosts` defaults to OUTBOUND_ALLOW_HOSTS, `lookup` to the system resolver; tests inject both. */
export type TUrlPolicyOptions = { allowHosts?: readonly string[]; lookup?: TLookup };

export type TCheckedTarget = {
  url: URL;
  /** The address to connect to (the first record); "" only when an allow-listed name did not resolve. */
  address: string;
  family: 4 | 6;
  /** The host is in OUTBOUND_ALLOW_HOSTS: the address rules were skipped and http is allowed. */
  allowListed: boolean;
};

export type TUrlCheck = { ok: true; target: TCheckedTarget } | { ok: false; rule: TWebhookUrlRule };

export const systemLookup: TLookup = async (hostname) => {
  const records = await dnsLookup(hostname, { all: true, verbatim: true });
  return records.map((record) => ({ address: record.address, family: record.family === 6 ? 6 : 4 }));
};

/** A resolver that gives up after `ms` (a lookup that rejects: the name counts as not resolving). */
export function lookupWithin(ms: number, base: TLookup = systemLookup): TLookup {
  return (hostname) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`DNS lookup of ${hostname} took over ${ms} ms`)), ms);
      base(hostname).then(
        (records) => {
          clearTimeout(timer);
          resolve(records);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}

/** OUTBOUND_ALLOW_HOSTS as a list: comma-separated, trimmed, lower-cased, IPv6 brackets removed. */
export function allowHostsFromEnv(): string[] {
  const text = process.env.OUTBOUND_ALLOW_HOSTS ?? "";
  return text
    .split(",")
    .map((entry) => stripBrackets(entry.trim().toLowerCase()))
    .filter((entry) => entry !== "");
}

/**
 * Whether an IP address is public unicast, as ipaddr.js classifies it: everything it names a special
 * range (loopback, private, link-local, CGNAT, ULA, unspecified, broadcast, multicast, reserved,
 * documentation, benchmarking, 6to4, Teredo, NAT64, …) is refused. An IPv4-mapped IPv6 address is
 * judged as its IPv4 address; anything that is not an IP address is not public.
 */
export function isPublicUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = toIPv4IfMapped(ipaddr.parse(address));
  // The deprecated IPv4-compatible form (::a.b.c.d, RFC 4291 §2.5.5.1) carries an IPv4 address
  // that ipaddr.js calls unicast; no public host uses it, and a stack that still honours it would
  // reach the embedded (maybe private) IPv4 address.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE, 96)) return false;
  return parsed.range() === "unicast";
}

const IPV4_COMPATIBLE = ipaddr.IPv6.parse("::");

/**
 * Checks a webhook URL by the rules in WEBHOOK_URL_RULES' order and returns the address to connect
 * to. Allow-listed hosts (exact name or IP) skip `unresolvable` and `address` and may use http.
 */
export async function checkWebhookUrl(raw: string, options: TUrlPolicyOptions = {}): Promise<TUrlCheck> {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, rule: "not_absolute" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, rule: "not_absolute" };
  }

  // The URL parser has already normalised the host: lower case, IPv4 in dotted decimal (0x7f.1 →
  // 127.0.0.1), IPv6 compressed and in brackets.
  const hostname = stripBrackets(url.hostname);
  const allowListed = isAllowListed(hostname, options.allowHosts ?? allowHostsFromEnv());

  if (!(url.protocol === "https:" || (allowListed && url.protocol === "http:"))) return { ok: false, rule: "scheme" };
  if (url.username !== "" || url.password !== "") return { ok: false, rule: "credentials" };

  const literalFamily = isIP(hostname);
  if (literalFamily === 4 || literalFamily === 6) {
    if (!allowListed && !isPublicUnicast(hostname)) return { ok: false, rule: "address" };
    return { ok: true, target: { url, address: hostname, family: literalFamily, allowListed } };
  }

  let records: { address: string; family: 4 | 6 }[];
  try {
    records = await (options.lookup ?? systemLookup)(hostname);
  } catch {
    records = [];
  }
  const first = records[0];
  if (!first) {
    // An allow-listed receiver may not be up yet when the URL is saved; the attempt reports dns_failed.
    if (allowListed) return { ok: true, target: { url, address: "", family: 4, allowListed } };
    return { ok: false, rule: "unresolvable" };
  }
  if (!allowListed && !records.every((record) => isPublicUnicast(record.address))) return { ok: false, rule: "address" };
  return { ok: true, target: { url, address: first.address, family: first.family, allowListed } };
}

function isAllowListed(hostname: string, allowHosts: readonly string[]): boolean {
  const key = hostKey(hostname);
  return allowHosts.some((entry) => hostKey(entry) === key);
}

/** A host as compared with the allow list: names lower-cased, IPs in one canonical form (mapped IPv6 as IPv4). */
function hostKey(host: string): string {
  const bare = stripBrackets(host.trim().toLowerCase());
  if (isIP(bare) === 0) return bare;
  return toIPv4IfMapped(ipaddr.parse(bare)).toString();
}

function toIPv4IfMapped(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
