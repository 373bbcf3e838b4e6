// The one client-IP rule: the socket's address unless TRUST_PROXY names proxy hops, and the
// socket header the server entry sets can only come from the socket (real HTTP).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { applyTestEnv } from "../../test/helpers/api";
import { getEnv } from "../env";
import * as serverEntry from "../../scripts/serve.mjs";
import { clientIp, SOCKET_ADDRESS_HEADER } from "./client-ip";

const headers = (socket: string | null, forwardedFor?: string) =>
  new Headers({
    ...(socket === null ? {} : { [SOCKET_ADDRESS_HEADER]: socket }),
    ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
  });

afterEach(() => applyTestEnv({ TRUST_PROXY: undefined }));

describe("clientIp", () => {
  it("is the socket address when TRUST_PROXY is unset: X-Forwarded-For is ignored", () => {
    applyTestEnv({ TRUST_PROXY: undefined });
    expect(clientIp(headers("203.0.113.9", "10.1.2.3"))).toBe("203.0.113.9");
    expect(clientIp(headers(null, "10.1.2.3"))).toBeNull();
    applyTestEnv({ TRUST_PROXY: "0" });
    expect(clientIp(headers("203.0.113.9", "10.1.2.3"))).toBe("203.0.113.9");
  });

  it("takes the N-th entry from the right of X-Forwarded-For with TRUST_PROXY=N", () => {
    applyTestEnv({ TRUST_PROXY: "1" });
    // The proxy appended the address it saw; whatever the client wrote before it is not trusted.
    expect(clientIp(headers("10.0.0.2", "10.1.2.3, 198.51.100.7"))).toBe("198.51.100.7");
    expect(clientIp(headers("10.0.0.2", "198.51.100.7"))).toBe("198.51.100.7");
    // No header (the proxy was bypassed): the socket.
    expect(clientIp(headers("198.51.100.8"))).toBe("198.51.100.8");
    applyTestEnv({ TRUST_PROXY: "2" });
    expect(clientIp(headers("10.0.0.2", "10.1.2.3, 198.51.100.7, 10.0.0.3"))).toBe("198.51.100.7");
    // Fewer entries than hops: the left-most.
    expect(clientIp(headers("10.0.0.2", "198.51.100.7"))).toBe("198.51.100.7");
  });

  it("gives addresses in one canonical form, and refuses what is not an address", () => {
    expect(clientIp(headers("::ffff:198.51.100.7"))).toBe("198.51.100.7");
    expect(clientIp(headers("2001:DB8:0:0::1"))).toBe("2001:db8::1");
    expect(clientIp(headers("not-an-address"))).toBeNull();
    applyTestEnv({ TRUST_PROXY: "1" });
    expect(clientIp(headers("10.0.0.2", "unknown"))).toBeNull();
  });
});

describe("TRUST_PROXY", () => {
  it("is a number of hops", () => {
    applyTestEnv({ TRUST_PROXY: " 2 " });
    expect(getEnv().TRUST_PROXY).toBe(2);
    applyTestEnv({ TRUST_PROXY: "" });
    expect(getEnv().TRUST_PROXY).toBeUndefined();
    applyTestEnv({ TRUST_PROXY: "true" });
    expect(() => getEnv()).toThrow(/TRUST_PROXY must be the number of proxy hops/);
  });
});

describe("stampSocketAddress (the server entry, scripts/serve.mjs)", () => {
  it("stamps the header this module trusts", () => {
    expect(serverEntry.SOCKET_ADDRESS_HEADER).toBe(SOCKET_ADDRESS_HEADER);
  });

  it("replaces a client's own copy of the socket header with the real peer's address", async () => {
    const server = http.createServer((req, res) => {
      serverEntry.stampSocketAddress(req);
      res.end(JSON.stringify(req.headers[SOCKET_ADDRESS_HEADER] ?? null));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { [SOCKET_ADDRESS_HEADER]: "10.1.2.3", "x-forwarded-for": "10.1.2.3" },
      });
      const seen = (await response.json()) as string;
      expect(seen).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(clientIp(new Headers({ [SOCKET_ADDRESS_HEADER]: seen, "x-forwarded-for": "10.1.2.3" }))).toBe("127.0.0.1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
