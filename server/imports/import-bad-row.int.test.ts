// One bad CSV row never fails a statement upload or its confirmation (issue #11): the other
// rows are previewed and written, the bad one is reported with its row number.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { seedBusiness } from "../../test/helpers/seed";

let api: TTestApi;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

const DAY = addDays(todayUtc(), -5);

describe("a statement with one bad row", () => {
  it("previews and confirms the good rows and reports the bad ones per row (year 0000)", async () => {
    const tag = randomUUID().slice(0, 8);
    const file = [
      "Date,Amount,Currency,Description",
      `${DAY},-10.00,EUR,good one ${tag}`,
      `0000-01-01,-12.00,EUR,year zero ${tag}`,
      `${DAY},-13.00,EUR,good two ${tag}`,
    ].join("\n");
    const preview = await callMultipart(api.handler, "/v1/imports", {
      fields: { business_id: businessId },
      file: { bytes: file },
    });
    expect(preview.status, preview.text).toBe(200);
    const importId = preview.body.data.import_id;
    const confirmed = await api.call("POST", `/v1/imports/${importId}/confirm`, { body: {} });
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.data.inserted).toBe(2);
    expect(confirmed.body.data.rejected.map((r: { row: number }) => r.row)).toEqual([2]);
  });
});
