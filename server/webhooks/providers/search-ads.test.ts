import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { nowSeconds, serviceHeaders } from "../../../test/helpers/webhook-signing";
import { searchAds, verifyServiceSignature } from "./search-ads";

const SECRET = "relay-secret";
const now = new Date("2026-03-01T12:00:00Z");
const row = (extra: Record<string, unknown> = {}) => ({
  date: "2026-02-28",
  campaign_id: "111",
  cost_micros: "12340000",
  currency: "EUR",
  ...extra,
});

describe("search_ads relay signature", () => {
  const body = JSON.stringify({ customer_id: "123-456-7890", reports: [row()] });
  const verify = (headers: Record<string, string>, raw = body) =>
    verifyServiceSignature({ headers: new Headers(headers), rawBody: Buffer.from(raw), secret: SECRET, now }) !== null;

  it("accepts X-Service-Signature over the raw body with a timestamp within 5 minutes", () => {
    expect(verify(serviceHeaders(SECRET, body, nowSeconds(now)))).toBe(true);
    expect(verify(serviceHeaders(SECRET, body, nowSeconds(now) + 299))).toBe(true);
  });

  it("refuses a stale or missing timestamp, another secret or body, a missing signature", () => {
    expect(verify(serviceHeaders(SECRET, body, nowSeconds(now) - 301))).toBe(false);
    const { "x-service-timestamp": _t, ...noTimestamp } = serviceHeaders(SECRET, body, nowSeconds(now));
    expect(verify(noTimestamp)).toBe(false);
    expect(verify(serviceHeaders("other", body, nowSeconds(now)))).toBe(false);
    expect(verify(serviceHeaders(SECRET, body, nowSeconds(now)), `${body}\n`)).toBe(false);
    expect(verify({ "x-service-timestamp": String(nowSeconds(now)) })).toBe(false);
  });
});

describe("search_ads mapping", () => {
  it("maps report rows to ad_spend: micros → minor units exactly, or cost_minor as is", () => {
    const { accounts, mapping } = searchAds.read({
      customer_id: "123-456-7890",
      reports: [row({ impressions: 10, clicks: 2 }), row({ ad_group_id: "222", cost_micros: undefined, cost_minor: 99 })],
    });
    expect(accounts).toEqual(["123-456-7890"]);
    expect(mapping.events).toEqual([
      {
        index: 0,
        account: "123-456-7890",
        event: {
          external_id: "cost:123-456-7890:111:2026-02-28",
          type: "ad_spend",
          state: "actual",
          amount_minor: 1234,
          currency: "EUR",
          occurred_on: "2026-02-28",
          source_type: "SEARCH_ADS_API",
          payload: {
            platform: "search_ads",
            account_id: "123-456-7890",
            campaign_id: "111",
            metrics: { cost_micros: "12340000", impressions: 10, clicks: 2 },
          },
        },
      },
      {
        index: 1,
        account: "123-456-7890",
        event: expect.objectContaining({
          external_id: "cost:123-456-7890:111:222:2026-02-28",
          amount_minor: 99,
          payload: { platform: "search_ads", account_id: "123-456-7890", campaign_id: "111", ad_group_id: "222" },
        }),
      },
    ]);
  });

  it("rejects a row whose micros are not whole minor units (never rounds) or whose currency is unknown", () => {
    const { mapping } = searchAds.read({
      customer_id: "c1",
      reports: [
        row({ cost_micros: 12_345_678 }),
        row({ campaign_id: "2", currency: "JPY", cost_micros: "5000000" }),
        row({ campaign_id: "3", currency: "JPY", cost_micros: "5500000" }),
        row({ campaign_id: "4", currency: "KWD", cost_micros: "1001000" }),
        row({ campaign_id: "5", currency: "XXY" }),
      ],
    });
    expect(mapping.rejected.map((r) => [r.index, r.code])).toEqual([
      [0, "validation_error"],
      [2, "validation_error"],
      [4, "currency_unsupported"],
    ]);
    expect(mapping.rejected[0]!.message).toMatch(/never rounded/);
    expect(mapping.events.map((e) => [e.index, e.event.amount_minor, e.event.currency])).toEqual([
      [1, 5, "JPY"],
      [3, 1001, "KWD"],
    ]);
  });

  it("maps alerts of the advertising codes to signals and ignores other types", () => {
    const { mapping } = searchAds.read({
      customer_id: "c1",
      alerts: [
        { id: "al_1", type: "campaign_paused", campaign_id: "111", occurred_at: "2026-03-01T10:00:00+02:00" },
        { id: "al_2", type: "integration_auth_expired", occurred_at: "2026-03-01T10:00:00Z", message: "Reconnect" },
        { id: "al_3", type: "keyword_paused", occurred_at: "2026-03-01T10:00:00Z" },
      ],
    });
    expect(mapping.signals).toEqual([
      {
        index: 0,
        account: "c1",
        signal: {
          external_id: "al_1",
          code: "campaign_paused",
          occurred_at: "2026-03-01T08:00:00.000Z",
          ref: { account_id: "c1", campaign_id: "111" },
        },
      },
      {
        index: 1,
        account: "c1",
        signal: {
          external_id: "al_2",
          code: "integration_auth_expired",
          occurred_at: "2026-03-01T10:00:00.000Z",
          ref: { account_id: "c1" },
          message: "Reconnect",
        },
      },
    ]);
    expect(mapping.ignored).toBe(1);
  });

  it("maps a budget change the relay saw applied or failed, naming the change when it knows it", () => {
    const change = "6f1c1f0e-8f7a-4c1e-9d55-1a2b3c4d5e6f";
    const { mapping } = searchAds.read({
      customer_id: "c1",
      alerts: [
        {
          id: "al_4",
          type: "budget_change_applied",
          campaign_id: "111",
          budget_change_id: change,
          occurred_at: "2026-03-01T10:00:00Z",
        },
        {
          id: "al_5",
          type: "budget_change_failed",
          campaign_id: "222",
          occurred_at: "2026-03-01T10:00:00Z",
          message: "Below minimum",
        },
        { id: "al_6", type: "budget_change_applied", budget_change_id: "not-a-uuid", occurred_at: "2026-03-01T10:00:00Z" },
      ],
    });
    expect(mapping.signals.map((s) => [s.signal.code, s.signal.ref, s.signal.message])).toEqual([
      ["budget_change_applied", { account_id: "c1", campaign_id: "111", budget_change_id: change }, undefined],
      ["budget_change_failed", { account_id: "c1", campaign_id: "222" }, "Below minimum"],
    ]);
    expect(mapping.rejected).toEqual([expect.objectContaining({ index: 2, code: "validation_error" })]);
  });

  it("carries the campaign's daily budget the relay reports with a budget alert (pinned-wave3 §1.1)", () => {
    const at = "2026-03-01T10:00:00Z";
    const { mapping } = searchAds.read({
      customer_id: "c1",
      alerts: [
        {
          id: "al_7",
          type: "budget_change_applied",
          campaign_id: "111",
          occurred_at: at,
          daily_budget_minor: 25000,
          currency: "EUR",
        },
        { id: "al_8", type: "budget_change_applied", campaign_id: "222", occurred_at: at, daily_budget_minor: 25000 },
      ],
    });
    expect(mapping.signals.map((s) => [s.signal.ref, s.signal.amount_minor, s.signal.currency])).toEqual([
      [{ account_id: "c1", campaign_id: "111" }, 25000, "EUR"],
    ]);
    expect(mapping.rejected).toEqual([expect.objectContaining({ index: 1, code: "validation_error" })]);
  });

  it("refuses an empty delivery and more than 500 items; a row with both or neither cost fields is rejected alone", () => {
    const issues = (body: unknown) => {
      try {
        searchAds.read(body);
        return null;
      } catch (error) {
        expect((error as AppError).code).toBe("validation_error");
        return ((error as AppError).details as { issues: Array<{ path: string }> }).issues.map((i) => i.path);
      }
    };
    expect(issues({ customer_id: "c1" })).toEqual(["reports"]);
    expect(issues({ customer_id: "c1", reports: Array.from({ length: 501 }, () => row()) })).toEqual(["(body)"]);
    const rejected = (report: unknown) =>
      searchAds.read({ customer_id: "c1", reports: [row(), report] }).mapping.rejected.map((r) => [r.index, r.code, r.message]);
    expect(rejected(row({ cost_minor: 1 }))).toEqual([[1, "validation_error", expect.stringContaining("cost_micros")]]);
    expect(rejected(row({ cost_micros: undefined }))).toEqual([[1, "validation_error", expect.stringContaining("cost_micros")]]);
    expect(rejected(row({ cost_micros: 1.5 }))).toEqual([[1, "validation_error", expect.any(String)]]);
  });
});
