// The one list of event types and states (lib/event-types.ts): the contract's values in its
// order, and the server's zod enums are these very lists (so the OpenAPI document shows them).
import { describe, expect, it } from "vitest";
import { ZNormalizedEvent } from "../server/ingest/ingest.schema";
import { ZEvent, ZFindEventsQuery } from "../server/ledger/event.schema";
import { EVENT_STATES, EVENT_TYPES, INGEST_EVENT_TYPES } from "./event-types";

describe("event types and states", () => {
  it("lists the contract's types in its order", () => {
    expect(EVENT_TYPES).toEqual([
      "revenue",
      "refund",
      "ad_spend",
      "expense",
      "recurring_expense",
      "planned_expense",
      "subscription_change",
      "agent_action",
    ]);
    expect(EVENT_STATES).toEqual(["actual", "planned"]);
  });

  it("lets integrations send every type but the owner's planned expenses and agents' actions, in the same order", () => {
    expect(INGEST_EVENT_TYPES).toEqual(EVENT_TYPES.filter((type) => type !== "planned_expense" && type !== "agent_action"));
  });

  it("is what the server's schemas accept", () => {
    expect(ZEvent.shape.type.options).toEqual(EVENT_TYPES);
    expect(ZEvent.shape.state.options).toEqual(EVENT_STATES);
    expect(ZFindEventsQuery.shape.type.unwrap().options).toEqual(EVENT_TYPES);
    expect(ZNormalizedEvent.shape.type.options).toEqual(INGEST_EVENT_TYPES);
  });
});
