// The SSRF table: every URL the owner could save that would reach the server itself, the metadata
// services or a private network is refused with its rule, by literal address or by any DNS record.
import { afterEach, describe, expect, it, vi } from "vitest";
import { allowHostsFromEnv, checkWebhookUrl, isPublicUnicast, lookupWithin, type TLookup, WEBHOOK_URL_RULES } from "./url-policy";

/** A resolver answering from a table; other names fail like the system resolver (ENOTFOUND). Records every query. */
function tableDns(table: Record<string, string[]>): TLookup & { queries: string[] } {
  const queries: string[] = [];
  const lookup = async (hostname: string) => {
    queries.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));
  };
  return Object.assign(lookup, { queries });
}

const dns = tableDns({
  "public.example.com": ["93.184.216.34"],
  "public6.example.com": ["2606:2800:220:1:248:1893:25c8:1946", "93.184.216.34"],
  "internal.example.com": ["10.0.0.5"],
  "metadata.example.com": ["169.254.169.254"],
  "public-then-private.example.com": ["93.184.216.34", "10.0.0.5"],
  "private-then-public.example.com": ["192.168.1.10", "93.184.216.34"],
  "ula.example.com": ["2606:2800:220:1:248:1893:25c8:1946", "fd00:ec2::254"],
  "mapped.example.com": ["::ffff:127.0.0.1"],
  "no-records.example.com": [],
  "receiver.internal": ["10.0.0.7"],
});
const noAllowList = { allowHosts: [], lookup: dns };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("checkWebhookUrl: refused addresses", () => {
  it.each([
    // IPv4 literals
    ["https://127.0.0.1/hook", "loopback"],
    ["https://127.8.9.10/hook", "loopback, the whole /8"],
    ["https://10.1.2.3/hook", "RFC 1918 10/8"],
    ["https://172.16.0.1/hook", "RFC 1918 172.16/12"],
    ["https://172.31.255.254/hook", "RFC 1918 172.16/12, its end"],
    ["https://192.168.0.1/hook", "RFC 1918 192.168/16"],
    ["https://169.254.169.254/latest/meta-data/", "link-local, the cloud metadata service"],
    ["https://100.64.0.1/hook", "CGNAT 100.64/10"],
    ["https://100.100.100.200/hook", "CGNAT, a cloud metadata service"],
    ["https://0.0.0.0/hook", "unspecified"],
    ["https://0.1.2.3/hook", "0/8"],
    ["https://255.255.255.255/hook", "broadcast"],
    ["https://224.0.0.1/hook", "multicast"],
    ["https://240.0.0.1/hook", "reserved 240/4"],
    ["https://192.0.2.1/hook", "documentation TEST-NET-1"],
    ["https://198.51.100.7/hook", "documentation TEST-NET-2"],
    ["https://203.0.113.9/hook", "documentation TEST-NET-3"],
    ["https://198.18.0.1/hook", "benchmarking 198.18/15"],
    ["https://192.0.0.8/hook", "IETF protocol assignments 192.0.0/24"],
    // IPv4 written in the forms the URL parser normalises
    ["https://0x7f.1/hook", "hex loopback"],
    ["https://2130706433/hook", "loopback as one number"],
    ["https://0177.0.0.1/hook", "octal loopback"],
    // IPv6 literals
    ["https://[::1]/hook", "loopback"],
    ["https://[::]/hook", "unspecified"],
    ["https://[fd00:ec2::254]/hook", "ULA, a cloud metadata service"],
    ["https://[fc00::1]/hook", "ULA fc00::/7"],
    ["https://[fe80::1]/hook", "link-local"],
    ["https://[fec0::1]/hook", "deprecated site-local"],
    ["https://[ff02::1]/hook", "multicast"],
    ["https://[::ffff:127.0.0.1]/hook", "IPv4-mapped loopback"],
    ["https://[::ffff:10.0.0.1]/hook", "IPv4-mapped private"],
    ["https://[::ffff:169.254.169.254]/hook", "IPv4-mapped metadata"],
    ["https://[::127.0.0.1]/hook", "deprecated IPv4-compatible loopback"],
    ["https://[64:ff9b::7f00:1]/hook", "NAT64 of loopback"],
    ["https://[2002:7f00:1::1]/hook", "6to4"],
    ["https://[2001:0:4136:e378::1]/hook", "Teredo"],
    ["https://[2001:db8::1]/hook", "documentation"],
    // names resolving to a refused address: every record counts, not only the first
    ["https://internal.example.com/hook", "a name with a private record"],
    ["https://metadata.example.com/hook", "a name with the metadata address"],
    ["https://public-then-private.example.com/hook", "one public and one private record"],
    ["https://private-then-public.example.com/hook", "one private and one public record"],
    ["https://ula.example.com/hook", "a public AAAA and a ULA AAAA"],
    ["https://mapped.example.com/hook", "an IPv4-mapped loopback AAAA"],
    ["https://receiver.internal/hook", "a private name not on the allow list"],
  ])("%s is refused (%s)", async (url) => {
    await expect(checkWebhookUrl(url, noAllowList)).resolves.toEqual({ ok: false, rule: "address" });
  });

  it("refuses localhost through the real resolver", async () => {
    await expect(checkWebhookUrl("https://localhost/hook", { allowHosts: [] })).resolves.toEqual({
      ok: false,
      rule: "address",
    });
  });

  it("does not resolve an IP literal", async () => {
    const lookup = tableDns({});
    await checkWebhookUrl("https://10.0.0.1/hook", { allowHosts: [], lookup });
    await checkWebhookUrl("https://[2606:4700:4700::1111]/hook", { allowHosts: [], lookup });
    expect(lookup.queries).toEqual([]);
  });
});

describe("checkWebhookUrl: accepted", () => {
  it("returns the first checked record of a public name to connect to", async () => {
    const result = await checkWebhookUrl("https://public.example.com/hooks/n?x=1", noAllowList);
    expect(result).toMatchObject({ ok: true, target: { address: "93.184.216.34", family: 4, allowListed: false } });
    if (result.ok) expect(result.target.url.href).toBe("https://public.example.com/hooks/n?x=1");
  });

  it("accepts an IPv6 public record first", async () => {
    await expect(checkWebhookUrl("https://public6.example.com/", noAllowList)).resolves.toMatchObject({
      ok: true,
      target: { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
    });
  });

  it("accepts public IP literals, IPv4-mapped ones as IPv4", async () => {
    await expect(checkWebhookUrl("https://93.184.216.34:8443/h", noAllowList)).resolves.toMatchObject({
      ok: true,
      target: { address: "93.184.216.34", family: 4 },
    });
    await expect(checkWebhookUrl("https://[2606:4700:4700::1111]/h", noAllowList)).resolves.toMatchObject({
      ok: true,
      target: { address: "2606:4700:4700::1111", family: 6 },
    });
    expect(isPublicUnicast("::ffff:93.184.216.34")).toBe(true);
  });

  it("accepts a URL of exactly 2048 characters", async () => {
    const base = "https://public.example.com/";
    const url = base + "a".repeat(2048 - base.length);
    expect(url).toHaveLength(2048);
    await expect(checkWebhookUrl(url, noAllowList)).resolves.toMatchObject({ ok: true });
  });
});

describe("checkWebhookUrl: the other rules, in order", () => {
  it.each([
    ["", "not_absolute"],
    ["/hooks/notifications", "not_absolute"],
    ["example.com/hook", "not_absolute"],
    ["https://", "not_absolute"],
    ["https://exa mple.com/", "not_absolute"],
    [`https://public.example.com/${"a".repeat(2049 - "https://public.example.com/".length)}`, "not_absolute"],
    ["http://public.example.com/hook", "scheme"],
    ["http://93.184.216.34/hook", "scheme"],
    ["ftp://public.example.com/hook", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["mailto:owner@example.com", "scheme"],
    ["https://user@public.example.com/hook", "credentials"],
    ["https://:secret@public.example.com/hook", "credentials"],
    ["https://user:secret@public.example.com/hook", "credentials"],
    ["http://user:secret@10.0.0.1/hook", "scheme"],
    ["https://user:secret@10.0.0.1/hook", "credentials"],
    ["https://does-not-exist.example.com/hook", "unresolvable"],
    ["https://no-records.example.com/hook", "unresolvable"],
  ] as const)("%s → %s", async (url, rule) => {
    expect(WEBHOOK_URL_RULES).toContain(rule);
    await expect(checkWebhookUrl(url, noAllowList)).resolves.toEqual({ ok: false, rule });
  });

  it("does not resolve a URL refused by an earlier rule", async () => {
    const lookup = tableDns({});
    await checkWebhookUrl("http://plain.example.com/", { allowHosts: [], lookup });
    await checkWebhookUrl("https://user:pw@creds.example.com/", { allowHosts: [], lookup });
    expect(lookup.queries).toEqual([]);
  });
});

describe("checkWebhookUrl: OUTBOUND_ALLOW_HOSTS", () => {
  it("lets an allow-listed IP skip the address rule, over http too", async () => {
    const options = { allowHosts: ["127.0.0.1"], lookup: dns };
    await expect(checkWebhookUrl("http://127.0.0.1:8080/hook", options)).resolves.toMatchObject({
      ok: true,
      target: { address: "127.0.0.1", family: 4, allowListed: true },
    });
    await expect(checkWebhookUrl("https://127.0.0.1/hook", options)).resolves.toMatchObject({ ok: true });
  });

  it("matches names case-insensitively and IPv6 with or without brackets", async () => {
    await expect(
      checkWebhookUrl("http://RECEIVER.internal:9000/", { allowHosts: ["Receiver.Internal"], lookup: dns }),
    ).resolves.toMatchObject({ ok: true, target: { address: "10.0.0.7", allowListed: true } });
    for (const entry of ["::1", "[::1]", "0:0:0:0:0:0:0:1"]) {
      await expect(checkWebhookUrl("http://[::1]:8080/", { allowHosts: [entry], lookup: dns })).resolves.toMatchObject({
        ok: true,
        target: { address: "::1", family: 6, allowListed: true },
      });
    }
  });

  it("exempts only the exact host listed", async () => {
    const lookup = tableDns({ "api.receiver.internal": ["10.0.0.8"] });
    await expect(checkWebhookUrl("https://127.0.0.2/", { allowHosts: ["127.0.0.1"], lookup })).resolves.toEqual({
      ok: false,
      rule: "address",
    });
    await expect(
      checkWebhookUrl("https://api.receiver.internal/", { allowHosts: ["receiver.internal"], lookup }),
    ).resolves.toEqual({ ok: false, rule: "address" });
    // The name is listed, not the address it resolves to.
    await expect(checkWebhookUrl("https://10.0.0.7/", { allowHosts: ["receiver.internal"], lookup })).resolves.toEqual({
      ok: false,
      rule: "address",
    });
  });

  it("still refuses credentials on an allow-listed host", async () => {
    await expect(checkWebhookUrl("http://u:p@127.0.0.1/", { allowHosts: ["127.0.0.1"] })).resolves.toEqual({
      ok: false,
      rule: "credentials",
    });
  });

  it("accepts an allow-listed name that does not resolve yet, with no address to connect to", async () => {
    await expect(
      checkWebhookUrl("http://receiver.not-up-yet/", { allowHosts: ["receiver.not-up-yet"], lookup: dns }),
    ).resolves.toMatchObject({ ok: true, target: { address: "", allowListed: true } });
  });

  it("reads the list from OUTBOUND_ALLOW_HOSTS by default", async () => {
    vi.stubEnv("OUTBOUND_ALLOW_HOSTS", " Receiver.Local , [::1],127.0.0.1,, ");
    expect(allowHostsFromEnv()).toEqual(["receiver.local", "::1", "127.0.0.1"]);
    await expect(checkWebhookUrl("http://127.0.0.1:3999/hook")).resolves.toMatchObject({ ok: true });
    await expect(checkWebhookUrl("http://[::1]:3999/hook")).resolves.toMatchObject({ ok: true });

    vi.stubEnv("OUTBOUND_ALLOW_HOSTS", "");
    expect(allowHostsFromEnv()).toEqual([]);
    await expect(checkWebhookUrl("http://127.0.0.1:3999/hook")).resolves.toEqual({ ok: false, rule: "scheme" });
    await expect(checkWebhookUrl("https://127.0.0.1:3999/hook")).resolves.toEqual({ ok: false, rule: "address" });
  });

  it("is empty when OUTBOUND_ALLOW_HOSTS is unset", () => {
    vi.stubEnv("OUTBOUND_ALLOW_HOSTS", undefined);
    expect(allowHostsFromEnv()).toEqual([]);
  });
});

describe("isPublicUnicast", () => {
  it.each([
    ["93.184.216.34", true],
    ["8.8.8.8", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["100.127.255.255", false],
    ["100.128.0.0", true],
    ["172.15.255.255", true],
    ["172.32.0.0", true],
    ["localhost", false],
    ["", false],
    ["[::1]", false],
  ])("%s → %s", (address, expected) => {
    expect(isPublicUnicast(address)).toBe(expected);
  });
});

describe("lookupWithin", () => {
  it("answers what the resolver answers in time, and gives up (unresolvable) on one that hangs", async () => {
    const quick = lookupWithin(1_000, async () => [{ address: "93.184.216.34", family: 4 }]);
    expect(await quick("example.com")).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const hanging = lookupWithin(50, () => new Promise(() => undefined));
    await expect(hanging("slow.example")).rejects.toThrow(/took over 50 ms/);
    const check = await checkWebhookUrl("https://slow.example/hook", { allowHosts: [], lookup: hanging });
    expect(check).toEqual({ ok: false, rule: "unresolvable" });
  });
});
