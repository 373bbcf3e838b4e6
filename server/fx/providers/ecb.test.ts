// The ECB parser against a stored sample of eurofxref-daily.xml, and the fetcher against a
// local HTTP server serving it (no test touches the internet).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEcbProvider, ECB_CURRENCIES, fetchEcbRates, parseEcbXml } from "./ecb";

const fixture = fs.readFileSync(new URL("./__fixtures__/eurofxref-daily.xml", import.meta.url), "utf8");

describe("parseEcbXml", () => {
  it("reads the day and every rate of the daily document, with 8 places", () => {
    const [set, ...rest] = parseEcbXml(fixture);
    expect(rest).toEqual([]);
    expect(set!.base).toBe("EUR");
    expect(set!.day).toBe("2026-11-20");
    expect(set!.rates.size).toBe(29);
    expect(set!.rates.get("USD")).toBe("1.15870000");
    expect(set!.rates.get("JPY")).toBe("181.32000000");
    expect(set!.rates.get("IDR")).toBe("19381.57000000");
    expect(set!.rates.get("GBP")).toBe("0.88143000");
    for (const currency of set!.rates.keys()) expect(ECB_CURRENCIES).toContain(currency);
  });

  it("reads several days (the 90-day history format), newest first, with either quote style", () => {
    const xml = `<gesmes:Envelope xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>
      <Cube time="2026-11-19"><Cube currency="USD" rate="1.1601"/></Cube>
      <Cube time='2026-11-20'><Cube currency='USD' rate='1.1587'/><Cube currency='GBP' rate='0.88143'/></Cube>
    </Cube></gesmes:Envelope>`;
    const sets = parseEcbXml(xml);
    expect(sets.map((s) => s.day)).toEqual(["2026-11-20", "2026-11-19"]);
    expect(sets[1]!.rates.get("USD")).toBe("1.16010000");
  });

  it.each([
    ["not the ECB", "<html>maintenance</html>"],
    ["no day", `<Envelope xmlns="eurofxref"><Cube></Cube></Envelope>`],
    ["an impossible day", `<x eurofxref/><Cube time='2026-02-30'><Cube currency='USD' rate='1.1'/></Cube>`],
    ["a day without rates", `<x eurofxref/><Cube time='2026-11-20'></Cube>`],
    ["a zero rate", `<x eurofxref/><Cube time='2026-11-20'><Cube currency='USD' rate='0'/></Cube>`],
  ])("refuses %s", (_name, xml) => {
    expect(() => parseEcbXml(xml)).toThrow();
  });
});

describe("fetchEcbRates", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/eurofxref-daily.xml") {
        res.writeHead(200, { "content-type": "text/xml" }).end(fixture);
      } else if (req.url === "/slow") {
        setTimeout(() => res.writeHead(200).end(fixture), 2_000).unref();
      } else {
        res.writeHead(503).end("unavailable");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("fetches and parses the configured URL", async () => {
    const provider = createEcbProvider({ url: `${base}/eurofxref-daily.xml` });
    const [set] = await provider.fetchRates("2026-11-22");
    expect(set!.day).toBe("2026-11-20");
    expect(set!.rates.get("CHF")).toBe("0.92710000");
  });

  it("fails on an HTTP error and on a timeout", async () => {
    await expect(fetchEcbRates(`${base}/down`)).rejects.toThrow(/503/);
    const started = Date.now();
    await expect(fetchEcbRates(`${base}/slow`, 200)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
