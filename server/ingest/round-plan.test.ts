// The round planner without a database: each outcome of an item (insert, dedupe, restate,
// void, fulfil, reconcile, reject) and their combinations inside a round and across rounds.
import { describe, expect, it } from "vitest";
import { ingestItem } from "../../test/helpers/ingest-items";
import type { TNormalizedEvent } from "./ingest.schema";
import {
  ChainIndex,
  planRound,
  roundLookups,
  rounds,
  UNLINKED_REFUND_MAX_CONFIDENCE,
  type TFrozenBase,
  type TItem,
  type TPlanContext,
  type TStored,
} from "./round-plan";

const OWNER = "00000000-0000-4000-8000-000000000001";
const INTEGRATION = "00000000-0000-4000-8000-0000000000a1";
const BUSINESS = "00000000-0000-4000-8000-0000000000b1";

function event(externalId: string, amount: number, extra: Partial<TNormalizedEvent> = {}): TNormalizedEvent {
  return ingestItem(INTEGRATION, externalId, amount, extra) as TNormalizedEvent;
}

const item = (index: number, e: TNormalizedEvent): TItem => ({ index, event: e, businessId: BUSINESS, projectId: null });

let storedIds = 0;
function stored(externalId: string, amount: bigint, extra: Partial<TStored> = {}): TStored {
  storedIds++;
  return {
    id: `stored-${storedIds}`,
    integrationId: INTEGRATION,
    externalId,
    chainExternalId: externalId,
    amountMinor: amount,
    currency: "EUR",
    status: "confirmed",
    type: "revenue",
    state: "actual",
    sourceType: "PAYMENTS_API",
    reconciled: false,
    fulfilledByEventId: null,
    ...extra,
  };
}

/** A planner's setting: what the database holds, and a context with numbered ids and a rate per item. */
function setting(rows: TStored[] = [], events: TStored[] = [], rates = new Map<number, TFrozenBase>()) {
  const chains = new ChainIndex();
  for (const row of rows) chains.add(row);
  let ids = 0;
  const ctx: TPlanContext = {
    ownerId: OWNER,
    requestId: "req-1",
    base: "USD",
    rates,
    claimedPlanned: new Set(),
    newId: () => `new-${++ids}`,
  };
  return { known: { chains, events: new Map(events.map((e) => [e.id, e])) }, ctx };
}

const rate = (baseMinor: bigint): TFrozenBase => ({ baseMinor, rate: "1.10000000", asOf: "2026-11-02", source: "mock" });

describe("planRound: one item", () => {
  it("inserts a new key confirmed, with its frozen base and its payload as sent", () => {
    const { known, ctx } = setting([], [], new Map([[0, rate(1_100n)]]));
    const plan = planRound([item(0, event("inv-1", 1_000, { payload: { order_id: "o1" } }))], known, ctx);
    expect(plan).toMatchObject({ voids: [], fulfilments: [], audits: [], deduped: 0, rejected: [] });
    expect(plan.inserts).toEqual([
      {
        id: "new-1",
        business_id: BUSINESS,
        project_id: undefined,
        type: "revenue",
        state: "actual",
        amount_minor: "1000",
        currency: "EUR",
        base_amount_minor: "1100",
        base_currency: "USD",
        fx_rate: "1.10000000",
        fx_as_of: "2026-11-02",
        fx_source: "mock",
        occurred_on: "2026-11-02",
        category: undefined,
        description: undefined,
        source_type: "PAYMENTS_API",
        integration_id: INTEGRATION,
        external_id: "inv-1",
        chain_external_id: "inv-1",
        confidence: 1,
        payload: { order_id: "o1" },
        subscription_id: undefined,
        refunds_event_id: undefined,
        supersedes_event_id: undefined,
        supersedes_event_ids: undefined,
        direction: undefined,
        reconciled: undefined,
      },
    ]);
    // The next item (or round) sees it as stored.
    expect(known.chains.latest(INTEGRATION, "inv-1")).toMatchObject({ id: "new-1", status: "confirmed", amountMinor: 1_000n });
  });

  it("a planned event has no frozen base", () => {
    const { known, ctx } = setting();
    const plan = planRound([item(0, event("plan-1", 500, { state: "planned" }))], known, ctx);
    expect(plan.inserts[0]).toMatchObject({ state: "planned", base_amount_minor: undefined, base_currency: undefined });
  });

  it("dedupes a repeat of the newest version (same amount and currency): nothing written", () => {
    const { known, ctx } = setting([stored("inv-1", 1_000n)]);
    const plan = planRound([item(0, event("inv-1", 1_000))], known, ctx);
    expect(plan).toEqual({ inserts: [], voids: [], fulfilments: [], audits: [], deduped: 1, rejected: [] });
  });

  it("restates a key sent with another amount: <key>:v2 supersedes the newest version, which is voided and audited", () => {
    const first = stored("inv-1", 1_000n);
    const { known, ctx } = setting([first]);
    const plan = planRound([item(0, event("inv-1", 1_200))], known, ctx);
    expect(plan.inserts).toHaveLength(1);
    expect(plan.inserts[0]).toMatchObject({
      external_id: "inv-1:v2",
      chain_external_id: "inv-1",
      supersedes_event_id: first.id,
      payload: { supersedes_external_id: "inv-1" },
    });
    expect(plan.voids).toEqual([{ eventId: first.id, byId: "new-1", integrationId: INTEGRATION }]);
    expect(plan.audits).toEqual([
      {
        owner_id: OWNER,
        actor_type: "integration",
        actor_id: INTEGRATION,
        action: "event.voided",
        target_type: "event",
        target_id: first.id,
        request_id: "req-1",
        details: { superseded_by: "new-1" },
      },
    ]);
    expect(known.chains.exact(INTEGRATION, "inv-1")!.status).toBe("voided");
  });

  it("compares a repeat with the chain's newest version and numbers after the highest", () => {
    const v1 = stored("inv-1", 1_000n, { status: "voided" });
    const v3 = stored("inv-1:v3", 1_300n, { chainExternalId: "inv-1" });
    const { known, ctx } = setting([v1, v3]);
    expect(planRound([item(0, event("inv-1", 1_300))], known, ctx).deduped).toBe(1);
    const plan = planRound([item(0, event("inv-1", 1_000))], known, ctx);
    expect(plan.inserts[0]).toMatchObject({ external_id: "inv-1:v4", supersedes_event_id: v3.id });
    expect(plan.voids.map((v) => v.eventId)).toEqual([v3.id]);
  });

  it("restating a voided newest version links it without voiding it again", () => {
    const voided = stored("inv-1", 1_000n, { status: "voided" });
    const { known, ctx } = setting([voided]);
    const plan = planRound([item(0, event("inv-1", 900))], known, ctx);
    expect(plan.inserts[0]).toMatchObject({ external_id: "inv-1:v2", supersedes_event_id: voided.id });
    expect(plan.voids).toEqual([]);
    expect(plan.audits).toEqual([]);
  });

  it("an explicit correction voids the named event; `<key>:v<n>` continues its chain", () => {
    const target = stored("inv-1", 1_000n);
    const { known, ctx } = setting([target]);
    const plan = planRound([item(0, event("inv-1:v5", 800, { payload: { supersedes_external_id: "inv-1" } }))], known, ctx);
    expect(plan.inserts[0]).toMatchObject({
      external_id: "inv-1:v5",
      chain_external_id: "inv-1",
      supersedes_event_id: target.id,
      supersedes_event_ids: undefined,
    });
    expect(plan.voids.map((v) => v.eventId)).toEqual([target.id]);
    // Another id keeps its own chain.
    const other = setting([stored("inv-2", 1_000n)]);
    const elsewhere = planRound(
      [item(0, event("credit-1", 800, { payload: { supersedes_external_id: "inv-2" } }))],
      other.known,
      other.ctx,
    );
    expect(elsewhere.inserts[0]).toMatchObject({ external_id: "credit-1", chain_external_id: "credit-1" });
  });

  it("an explicit correction of several events fills supersedes_event_ids and voids each", () => {
    const a = stored("a", 100n);
    const b = stored("b", 200n);
    const { known, ctx } = setting([a, b]);
    const plan = planRound([item(0, event("ab:v2", 300, { payload: { supersedes_external_id: ["a", "b"] } }))], known, ctx);
    expect(plan.inserts[0]).toMatchObject({ supersedes_event_id: undefined, supersedes_event_ids: [a.id, b.id] });
    expect(plan.voids.map((v) => v.eventId)).toEqual([a.id, b.id]);
    expect(plan.audits.map((x) => [x.action, x.target_id])).toEqual([
      ["event.voided", a.id],
      ["event.voided", b.id],
    ]);
  });

  it("rejects a correction naming an event the integration does not have", () => {
    const { known, ctx } = setting([stored("a", 100n)]);
    const plan = planRound([item(3, event("c", 300, { payload: { supersedes_external_id: ["a", "zz"] } }))], known, ctx);
    expect(plan.inserts).toEqual([]);
    expect(plan.voids).toEqual([]);
    expect(plan.rejected).toEqual([
      {
        index: 3,
        external_id: "c",
        code: "validation_error",
        message: "payload.supersedes_external_id: no event zz in this integration",
      },
    ]);
  });
});

describe("planRound: refunds", () => {
  it("links a refund to the newest confirmed version of the refunded key; the direction follows its type", () => {
    const charge = stored("ch-1", 5_000n);
    const { known, ctx } = setting([charge]);
    const plan = planRound(
      [item(0, event("re-1", -500, { type: "refund", payload: { refunds_external_id: "ch-1" } }))],
      known,
      ctx,
    );
    expect(plan.inserts[0]).toMatchObject({ refunds_event_id: charge.id, direction: "out", confidence: 1 });
    const expense = setting([stored("ex-1", 5_000n, { type: "expense" })]);
    const refundOfExpense = planRound(
      [item(0, event("re-2", -500, { type: "refund", payload: { refunds_external_id: "ex-1" } }))],
      expense.known,
      expense.ctx,
    );
    expect(refundOfExpense.inserts[0]).toMatchObject({ direction: "in" });
  });

  it("rejects a refund in another currency than its charge", () => {
    const { known, ctx } = setting([stored("ch-1", 5_000n, { currency: "USD" })]);
    const plan = planRound(
      [item(0, event("re-1", -500, { type: "refund", payload: { refunds_external_id: "ch-1" } }))],
      known,
      ctx,
    );
    expect(plan.rejected).toEqual([
      { index: 0, external_id: "re-1", code: "currency_mismatch", message: "A refund in EUR of an event in USD." },
    ]);
  });

  it("stores an unknown charge's refund unlinked, at most 0.9 confident, when it names its direction; else rejects it", () => {
    const { known, ctx } = setting();
    const plan = planRound(
      [
        item(
          0,
          event("re-1", -500, { type: "refund", confidence: 1, payload: { refunds_external_id: "gone", direction: "out" } }),
        ),
        item(1, event("re-2", -500, { type: "refund", payload: { refunds_external_id: "gone" } })),
      ],
      known,
      ctx,
    );
    expect(plan.inserts.map((r) => [r.external_id, r.refunds_event_id, r.direction, r.confidence])).toEqual([
      ["re-1", undefined, "out", UNLINKED_REFUND_MAX_CONFIDENCE],
    ]);
    expect(plan.rejected.map((r) => [r.index, r.message])).toEqual([
      [1, "payload.direction: required when the refunded event is not known (in or out)"],
    ]);
  });

  it("a refund finds a charge planned earlier in the same round, even its restatement", () => {
    const charge = stored("ch-1", 5_000n);
    const { known, ctx } = setting([charge]);
    const round = rounds([
      item(0, event("re-1", -500, { type: "refund", payload: { refunds_external_id: "ch-1" } })),
      item(1, event("ch-1", 6_000)),
      item(2, event("re-2", -100, { type: "refund", payload: { refunds_external_id: "ch-2" } })),
      item(3, event("ch-2", 1_000)),
    ])[0]!;
    const plan = planRound(round, known, ctx);
    const byKey = new Map(plan.inserts.map((r) => [r.external_id, r]));
    expect(byKey.get("re-1")!.refunds_event_id).toBe(byKey.get("ch-1:v2")!.id);
    expect(byKey.get("re-2")!.refunds_event_id).toBe(byKey.get("ch-2")!.id);
    expect(plan.voids.map((v) => v.eventId)).toEqual([charge.id]);
  });
});

describe("planRound: fulfilments and reconciliations", () => {
  const planned = (extra: Partial<TStored> = {}) =>
    stored("planned", 1_000n, { integrationId: null, externalId: null, state: "planned", sourceType: "MANUAL", ...extra });

  it("fulfils a planned event: variance = actual − planned, audited, claimed for the rest of the batch", () => {
    const target = planned({ id: "planned-1" });
    const { known, ctx } = setting([], [target]);
    const plan = planRound(
      [
        item(0, event("pay-1", 1_250, { type: "expense", payload: { fulfills_event_id: "planned-1" } })),
        item(1, event("pay-2", 1_000, { type: "expense", payload: { fulfills_event_id: "planned-1" } })),
      ],
      known,
      ctx,
    );
    expect(plan.fulfilments).toEqual([{ plannedId: "planned-1", eventId: "new-1", integrationId: INTEGRATION, variance: 250n }]);
    expect(plan.audits).toEqual([
      {
        owner_id: OWNER,
        actor_type: "integration",
        actor_id: INTEGRATION,
        action: "event.fulfilled",
        target_type: "event",
        target_id: "planned-1",
        request_id: "req-1",
        details: { fulfilled_by_event_id: "new-1", variance_minor: 250 },
      },
    ]);
    expect(plan.rejected).toEqual([
      {
        index: 1,
        external_id: "pay-2",
        code: "validation_error",
        message: "payload.fulfills_event_id: that planned event is already fulfilled",
      },
    ]);
    expect(ctx.claimedPlanned).toEqual(new Set(["planned-1"]));
  });

  it.each([
    ["no such event", undefined, "validation_error", "payload.fulfills_event_id: no such planned event"],
    ["an actual event", { state: "actual" }, "validation_error", "payload.fulfills_event_id: no such planned event"],
    ["a voided one", { status: "voided" }, "validation_error", "payload.fulfills_event_id: no such planned event"],
    [
      "one fulfilled before",
      { fulfilledByEventId: "other" },
      "validation_error",
      "payload.fulfills_event_id: that planned event is already fulfilled",
    ],
    ["one in another currency", { currency: "USD" }, "currency_mismatch", "The planned event is in USD, this one in EUR."],
    [
      "a variance beyond the exact range",
      { amountMinor: -(2n ** 53n) },
      "validation_error",
      "amount_minor: its variance from the planned event is beyond the exact integer range",
    ],
  ] as const)("rejects fulfilling %s", (_, extra, code, message) => {
    const events = extra === undefined ? [] : [planned({ id: "planned-1", ...extra })];
    const { known, ctx } = setting([], events);
    const plan = planRound([item(0, event("pay-1", 1_000, { payload: { fulfills_event_id: "planned-1" } }))], known, ctx);
    expect(plan.inserts).toEqual([]);
    expect(plan.fulfilments).toEqual([]);
    expect(plan.rejected).toEqual([{ index: 0, external_id: "pay-1", code, message }]);
  });

  it("stores an event reconciling integration events whose amounts sum to its own (either sign) as reconciled", () => {
    const a = stored("a", 300n, { id: "ev-a" });
    const b = stored("b", 200n, { id: "ev-b" });
    const { known, ctx } = setting([], [a, b]);
    const plan = planRound(
      [
        item(0, event("line-1", -500, { source_type: "IMPORT", payload: { reconciles_event_id: ["ev-a", "ev-b"] } })),
        item(1, event("line-2", 300, { source_type: "IMPORT", payload: { reconciles_event_id: "ev-a" } })),
      ],
      known,
      ctx,
    );
    expect(plan.rejected).toEqual([]);
    expect(plan.inserts.map((r) => [r.reconciled, r.payload.reconciled])).toEqual([
      [true, true],
      [true, true],
    ]);
  });

  it("stores a bank line reconciling an entry made by hand (source MANUAL, no integration) as reconciled", () => {
    const hand = stored("-", 500n, {
      id: "ev-hand",
      integrationId: null,
      externalId: null,
      sourceType: "MANUAL",
      type: "expense",
    });
    const { known, ctx } = setting([], [hand]);
    const plan = planRound(
      [item(0, event("line-1", -500, { source_type: "IMPORT", payload: { reconciles_event_id: "ev-hand" } }))],
      known,
      ctx,
    );
    expect(plan.rejected).toEqual([]);
    expect(plan.inserts.map((r) => [r.reconciled, r.payload.reconciled])).toEqual([[true, true]]);
  });

  it.each([
    [
      "an unknown event",
      [],
      ["ev-x"],
      -500,
      "validation_error",
      "payload.reconciles_event_id: ev-x is not an actual event from an integration or entered by hand",
    ],
    [
      "an event marked MANUAL that an integration holds",
      [stored("m", 500n, { id: "ev-m", sourceType: "MANUAL" })],
      ["ev-m"],
      500,
      "validation_error",
      "payload.reconciles_event_id: ev-m is not an actual event from an integration or entered by hand",
    ],
    [
      "an event in another currency",
      [stored("u", 500n, { id: "ev-u", currency: "USD" })],
      ["ev-u"],
      500,
      "currency_mismatch",
      "payload.reconciles_event_id: the matched events are in another currency",
    ],
    [
      "amounts that do not match",
      [stored("a", 500n, { id: "ev-a" })],
      ["ev-a"],
      499,
      "validation_error",
      "payload.reconciles_event_id: the amounts do not match",
    ],
  ] as const)("rejects reconciling %s", (_, events, ids, amount, code, message) => {
    const { known, ctx } = setting([], [...events]);
    const plan = planRound([item(0, event("line-1", amount, { payload: { reconciles_event_id: [...ids] } }))], known, ctx);
    expect(plan.inserts).toEqual([]);
    expect(plan.rejected).toEqual([{ index: 0, external_id: "line-1", code, message }]);
  });
});

describe("planRound: rejections that touch nothing", () => {
  it("rejects an event whose base amount PostgreSQL could not store, and voids nothing for it", () => {
    const first = stored("inv-1", 1_000n);
    const { known, ctx } = setting([first], [], new Map([[0, rate(2n ** 63n)]]));
    const plan = planRound([item(0, event("inv-1", 1_200))], known, ctx);
    expect(plan).toMatchObject({ inserts: [], voids: [], audits: [] });
    expect(plan.rejected).toEqual([
      { index: 0, external_id: "inv-1", code: "validation_error", message: "base_amount_minor: is out of range" },
    ]);
    expect(known.chains.exact(INTEGRATION, "inv-1")!.status).toBe("confirmed");
  });

  it("an item whose planning throws is rejected alone; the others are planned", () => {
    const { known, ctx } = setting();
    const plan = planRound([item(0, event("bad", 1.5)), item(1, event("good", 100))], known, ctx);
    expect(plan.rejected).toEqual([
      { index: 0, external_id: "bad", code: "validation_error", message: "This item could not be read; it was not stored." },
    ]);
    expect(plan.inserts.map((r) => r.external_id)).toEqual(["good"]);
  });
});

describe("rounds across a batch", () => {
  it("splits repeats of a key into later rounds, refunds last in each", () => {
    const items = [
      item(0, event("r", -1, { type: "refund" })),
      item(1, event("a", 1)),
      item(2, event("a", 2)),
      item(3, event("b", 3)),
      item(4, event("a", 4)),
    ];
    expect(rounds(items).map((round) => round.map((i) => i.index))).toEqual([[1, 3, 0], [2], [4]]);
  });

  it("names the keys and events a round must load", () => {
    const lookups = roundLookups([
      item(0, event("a", 1, { payload: { supersedes_external_id: ["x", "y"] } })),
      item(1, event("r", -1, { type: "refund", payload: { refunds_external_id: "c" } })),
      item(2, event("f", 1, { payload: { fulfills_event_id: "p-1", reconciles_event_id: ["e-1", "e-2"] } })),
    ]);
    expect(lookups.keys).toEqual(new Map([[INTEGRATION, new Set(["a", "x", "y", "r", "c", "f"])]]));
    expect(lookups.eventIds).toEqual(new Set(["p-1", "e-1", "e-2"]));
  });

  it("a restatement, then its repeat and another restatement in later rounds: each round sees the last", () => {
    const first = stored("inv-1", 1_000n);
    const { known, ctx } = setting([first]);
    const [r1, r2, r3] = rounds([item(0, event("inv-1", 1_100)), item(1, event("inv-1", 1_100)), item(2, event("inv-1", 1_200))]);
    const p1 = planRound(r1!, known, ctx);
    const p2 = planRound(r2!, known, ctx);
    const p3 = planRound(r3!, known, ctx);
    expect(p1.inserts.map((r) => r.external_id)).toEqual(["inv-1:v2"]);
    expect(p1.voids.map((v) => v.eventId)).toEqual([first.id]);
    expect(p2).toMatchObject({ inserts: [], voids: [], deduped: 1 });
    expect(p3.inserts[0]).toMatchObject({ external_id: "inv-1:v3", supersedes_event_id: p1.inserts[0]!.id });
    expect(p3.voids.map((v) => v.eventId)).toEqual([p1.inserts[0]!.id]);
  });

  it("a refund of an event voided by an explicit correction in the same round still links to it (voids apply after the round)", () => {
    const charge = stored("ch-1", 5_000n);
    const { known, ctx } = setting([charge]);
    const plan = planRound(
      rounds([
        item(0, event("credit-1", 4_000, { payload: { supersedes_external_id: "ch-1" } })),
        item(1, event("re-1", -500, { type: "refund", payload: { refunds_external_id: "ch-1" } })),
      ])[0]!,
      known,
      ctx,
    );
    expect(plan.voids.map((v) => v.eventId)).toEqual([charge.id]);
    expect(plan.inserts.find((r) => r.external_id === "re-1")!.refunds_event_id).toBe(charge.id);
    // The next round sees the charge voided: a refund of it there goes in unlinked.
    const next = planRound(
      [item(2, event("re-2", -500, { type: "refund", payload: { refunds_external_id: "ch-1", direction: "out" } }))],
      known,
      ctx,
    );
    expect(next.inserts[0]).toMatchObject({ refunds_event_id: undefined, confidence: UNLINKED_REFUND_MAX_CONFIDENCE });
  });
});
