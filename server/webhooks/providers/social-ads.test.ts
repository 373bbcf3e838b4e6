import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { socialAdsHeaders } from "../../../test/helpers/webhook-signing";
import { socialAds, verifySocialAds } from "./social-ads";

const SECRET = "social-app-secret";
const TIME = 1_772_366_400; // 2026-03-01T12:00:00Z

const delivery = (changes: Array<{ field: string; value: Record<string, unknown> }>, id = "act_1") => ({
  object: "ad_account",
  entry: [{ id, time: TIME, changes }],
});
const spend = (value: Record<string, unknown> = {}) => ({
  field: "spend",
  value: { date: "2026-03-01", level: "campaign", campaign_id: "c1", spend: "12.34", currency: "EUR", ...value },
});

describe("social_ads signature", () => {
  const body = JSON.stringify(delivery([spend()]));
  const verify = (headers: Record<string, string>, raw = body) =>
    verifySocialAds({ headers: new Headers(headers), rawBody: Buffer.from(raw), secret: SECRET, now: new Date() }) !== null;

  it("accepts sha256=<hex HMAC of the raw body> and nothing else", () => {
    expect(verify(socialAdsHeaders(SECRET, body))).toBe(true);
    expect(verify(socialAdsHeaders("other", body))).toBe(false);
    expect(verify(socialAdsHeaders(SECRET, body), body.replace("12.34", "12.35"))).toBe(false);
    expect(verify({ "x-hub-signature-256": socialAdsHeaders(SECRET, body)["x-hub-signature-256"]!.slice(7) })).toBe(false);
    expect(verify({})).toBe(false);
  });
});

describe("social_ads mapping", () => {
  it("maps a level's daily spend to ad_spend with a deterministic key, exact minor units", () => {
    const { accounts, mapping } = socialAds.read(
      delivery([spend({ level: "ad_set", ad_set_id: "s1", impressions: 1000, clicks: 12 })]),
    );
    expect(accounts).toEqual(["act_1"]);
    expect(mapping.events).toEqual([
      {
        index: 0,
        account: "act_1",
        event: {
          external_id: "spend:act_1:ad_set:s1:2026-03-01",
          type: "ad_spend",
          state: "actual",
          amount_minor: 1234,
          currency: "EUR",
          occurred_on: "2026-03-01",
          source_type: "SOCIAL_ADS_API",
          payload: {
            platform: "social_ads",
            account_id: "act_1",
            campaign_id: "c1",
            ad_set_id: "s1",
            metrics: { spend: "12.34", impressions: 1000, clicks: 12 },
          },
        },
      },
    ]);
  });

  it("never rounds: a spend finer than the minor unit is rejected, JPY has none", () => {
    const { mapping } = socialAds.read(
      delivery([
        spend({ spend: "12.345" }),
        spend({ campaign_id: "c2", spend: "1200", currency: "JPY" }),
        spend({ campaign_id: "c3", spend: "1.50", currency: "JPY" }),
      ]),
    );
    expect(mapping.rejected).toEqual([
      expect.objectContaining({ index: 0, code: "validation_error", external_id: "spend:act_1:campaign:c1:2026-03-01" }),
      expect.objectContaining({ index: 2, code: "validation_error" }),
    ]);
    expect(mapping.events.map((e) => [e.index, e.event.amount_minor, e.event.currency])).toEqual([[1, 1200, "JPY"]]);
    expect(socialAds.read(delivery([spend({ spend: "12.3400" })])).mapping.events[0]!.event.amount_minor).toBe(1234);
  });

  it("maps status changes to signals and ignores the statuses and fields it does not read", () => {
    const { mapping } = socialAds.read(
      delivery([
        { field: "campaign_status", value: { campaign_id: "c1", status: "PAUSED" } },
        { field: "campaign_status", value: { campaign_id: "c2", status: "ARCHIVED" } },
        { field: "campaign_status", value: { campaign_id: "c3", status: "DELETED" } },
        { field: "campaign_status", value: { campaign_id: "c4", status: "ACTIVE" } },
        { field: "ad_status", value: { ad_id: "a1", campaign_id: "c1", status: "DISAPPROVED", reason: "Policy" } },
        { field: "ad_status", value: { ad_id: "a2", status: "ACTIVE" } },
        { field: "account_status", value: { status: "DISABLED" } },
        { field: "budget_limited", value: { campaign_id: "c1" } },
        { field: "leadgen", value: { id: "l1" } },
      ]),
    );
    expect(mapping.signals.map((s) => [s.signal.code, s.signal.ref])).toEqual([
      ["campaign_paused", { account_id: "act_1", campaign_id: "c1" }],
      ["campaign_removed", { account_id: "act_1", campaign_id: "c2" }],
      ["campaign_removed", { account_id: "act_1", campaign_id: "c3" }],
      ["ad_disapproved", { account_id: "act_1", ad_id: "a1", campaign_id: "c1" }],
      ["account_suspended", { account_id: "act_1" }],
      ["budget_limited", { account_id: "act_1", campaign_id: "c1" }],
    ]);
    expect(mapping.signals[0]!.signal).toMatchObject({
      external_id: `campaign_status:act_1:c1:PAUSED:${TIME}`,
      occurred_at: "2026-03-01T12:00:00.000Z",
    });
    expect(mapping.signals[3]!.signal.message).toBe("An ad was disapproved: Policy");
    expect(mapping.ignored).toBe(3);
    expect(mapping.events).toEqual([]);
  });

  it("maps a campaign's budget applied or failed to the budget change signals", () => {
    const { mapping } = socialAds.read(
      delivery([
        { field: "campaign_budget", value: { campaign_id: "c1", status: "APPLIED", daily_budget: "70.00" } },
        { field: "campaign_budget", value: { campaign_id: "c2", status: "failed", reason: "Below the minimum" } },
        { field: "campaign_budget", value: { campaign_id: "c3", status: "PENDING" } },
        { field: "campaign_budget", value: { campaign_id: "c4", status: "APPLIED", daily_budget: "70,00" } },
      ]),
    );
    expect(mapping.signals.map((s) => [s.signal.code, s.signal.ref, s.signal.message])).toEqual([
      ["budget_change_applied", { account_id: "act_1", campaign_id: "c1" }, undefined],
      ["budget_change_failed", { account_id: "act_1", campaign_id: "c2" }, "The budget change failed: Below the minimum"],
    ]);
    expect(mapping.signals[0]!.signal.external_id).toBe(`campaign_budget:act_1:c1:APPLIED:${TIME}`);
    expect(mapping.ignored).toBe(1);
    expect(mapping.rejected).toEqual([expect.objectContaining({ index: 3, code: "validation_error" })]);
  });

  it("carries the daily budget the platform reports with its currency, converted exactly (pinned-wave3 §1.1)", () => {
    const { mapping } = socialAds.read(
      delivery([
        { field: "campaign_budget", value: { campaign_id: "c1", status: "APPLIED", daily_budget: "250.00", currency: "EUR" } },
        { field: "campaign_budget", value: { campaign_id: "c2", status: "FAILED", daily_budget: "80", currency: "JPY" } },
        { field: "campaign_budget", value: { campaign_id: "c3", status: "APPLIED", daily_budget: "70.001", currency: "EUR" } },
      ]),
    );
    expect(mapping.signals.map((s) => [s.signal.ref?.campaign_id, s.signal.amount_minor, s.signal.currency])).toEqual([
      ["c1", 25000, "EUR"],
      ["c2", 80, "JPY"],
    ]);
    expect(mapping.rejected).toEqual([expect.objectContaining({ index: 2, code: "validation_error" })]);
  });

  it("names every entry's account and numbers changes across entries", () => {
    const body = {
      object: "ad_account",
      entry: [
        { id: "act_1", time: TIME, changes: [spend()] },
        { id: "act_2", time: TIME, changes: [spend(), spend({ campaign_id: "c9" })] },
      ],
    };
    const { accounts, mapping } = socialAds.read(body);
    expect(accounts).toEqual(["act_1", "act_2"]);
    expect(mapping.events.map((e) => [e.index, e.account, e.event.external_id])).toEqual([
      [0, "act_1", "spend:act_1:campaign:c1:2026-03-01"],
      [1, "act_2", "spend:act_2:campaign:c1:2026-03-01"],
      [2, "act_2", "spend:act_2:campaign:c9:2026-03-01"],
    ]);
  });

  it("refuses an envelope that is not the documented shape (400 naming the field); a bad change is rejected alone", () => {
    const bad = (body: unknown) => {
      try {
        socialAds.read(body);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        return ((error as AppError).details as { issues: Array<{ path: string }> }).issues.map((i) => i.path);
      }
    };
    expect(bad({ object: "page", entry: [] })).toEqual(["object", "entry"]);
    // A change of the wrong shape is rejected alone (index: its position), the others are mapped.
    const { mapping } = socialAds.read(delivery([spend(), spend({ level: "ad" }), spend({ spend: 12.34 })]));
    expect(mapping.events.map((e) => e.index)).toEqual([0]);
    expect(mapping.rejected.map((r) => [r.index, r.code, r.message])).toEqual([
      [1, "validation_error", "ad_id: level ad needs ad_id"],
      [2, "validation_error", expect.stringContaining("spend")],
    ]);
    expect(bad(delivery(Array.from({ length: 501 }, () => ({ field: "x", value: {} }))))).toEqual(["entry"]);
  });
});
