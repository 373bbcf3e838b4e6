// The integrations page's words for the catalog and for what a sync brought in.
import { describe, expect, it } from "vitest";
import { PROVIDER_CATALOG } from "@/server/panel-contract";
import { describeSync, isAccountProvider, type TCatalogEntry, type TSyncResult } from "./catalog";

/** The catalog's payments_a entry as the owner sees it, changed by `fields`. */
const entry = (fields: Partial<TCatalogEntry>): TCatalogEntry => ({
  ...PROVIDER_CATALOG[0]!,
  connected: 0,
  pending: 0,
  ...fields,
});

describe("isAccountProvider", () => {
  it("is a provider available now and connected with an account id", () => {
    expect(isAccountProvider(entry({}))).toBe(true);
    expect(isAccountProvider(entry({ availability: "coming_soon" }))).toBe(false);
    expect(isAccountProvider(entry({ connect: "oauth" }))).toBe(false);
    expect(isAccountProvider(entry({ connect: "secret" }))).toBe(false);
  });
});

describe("describeSync", () => {
  const rejected = { index: 0, external_id: null, code: "validation_error" as const, message: "amount_minor: required" };
  const result = (fields: Partial<TSyncResult>): TSyncResult => ({
    integration_id: "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00",
    inserted: 0,
    deduped: 0,
    rejected: [],
    signals_accepted: 0,
    signals_deduped: 0,
    cash_snapshots_inserted: 0,
    cash_snapshots_deduped: 0,
    cash_snapshots_rejected: [],
    ...fields,
  });

  it("counts events, signals and cash snapshots, one or many", () => {
    expect(
      describeSync(result({ inserted: 1, deduped: 2, rejected: [rejected], signals_accepted: 3, cash_snapshots_inserted: 1 })),
    ).toBe(
      "1 event inserted, 2 deduped, 1 rejected · 3 signals accepted, 0 deduped · 1 cash snapshot inserted, 0 deduped, 0 rejected",
    );
    expect(describeSync(result({ inserted: 2, signals_accepted: 1, cash_snapshots_rejected: [rejected, rejected] }))).toBe(
      "2 events inserted, 0 deduped, 0 rejected · 1 signal accepted, 0 deduped · 0 cash snapshots inserted, 0 deduped, 2 rejected",
    );
  });
});
