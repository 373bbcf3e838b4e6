// Uploads are bounded and no upload holds the others (pinned-wave3 §1.5, issue 32 item 5): the
// files that once ran the server out of heap or held every request for 20 s end in a 413 naming
// the bound they passed, alone and four at once, while the owner's other requests are answered;
// nothing is stored; the server answers afterwards. (How fast is the bench's: `npm run bench --
// --only=upload`; no timed test.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, staticOwner } from "../../test/helpers/seed";
import { addDays, todayUtc } from "../../lib/days";
import { STATEMENT_MAX_COLUMNS, STATEMENT_MAX_LINE_BYTES, STATEMENT_MAX_ROWS } from "./statement-limits";

let api: TTestApi;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  await staticOwner(api);
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

function upload(file: string) {
  return callMultipart(api.handler, "/v1/imports", { fields: { business_id: businessId }, file: { bytes: file } });
}

/** The first file: 556,911 one-field rows, just under 10 MB. */
const manyTinyRows = () => "x\n" + "1234567890123456\n".repeat(556_911);
/** One 10 MB line. */
const oneLongLine = () => "Date,Amount," + "y".repeat(10 * 1024 * 1024 - 100);
/** 200,000 columns in 1.7 MB: a header and one row. */
const wideFile = () => `${"c,".repeat(200_000)}\n${"1,".repeat(200_000)}\n`.slice(0, 1_700_000);

describe("POST /v1/imports is bounded", () => {
  it("answers 413 naming the bound (rows, line_bytes, columns), alone and four at once, while GET /v1/me is answered; stores nothing", async () => {
    const before = await api.db.import.count();

    const rows = await upload(manyTinyRows());
    expectApiError(rows, 413, "payload_too_large");
    expect(rows.body.error.details).toEqual({ limit: "rows", max: STATEMENT_MAX_ROWS });

    const line = await upload(oneLongLine());
    expectApiError(line, 413, "payload_too_large");
    expect(line.body.error.details).toEqual({ limit: "line_bytes", max: STATEMENT_MAX_LINE_BYTES });

    const wide = await upload(wideFile());
    expectApiError(wide, 413, "payload_too_large");
    expect(wide.body.error.details).toEqual({ limit: "line_bytes", max: STATEMENT_MAX_LINE_BYTES });

    // Within the line bound, past the column bound: the header's cells are counted.
    const columns = await upload(`${Array.from({ length: STATEMENT_MAX_COLUMNS + 1 }, (_, i) => `c${i}`).join(",")}\n`);
    expectApiError(columns, 413, "payload_too_large");
    expect(columns.body.error.details).toEqual({ limit: "columns", max: STATEMENT_MAX_COLUMNS });

    // Four at once, and the owner's other requests meanwhile.
    const uploads = Promise.all([upload(manyTinyRows()), upload(oneLongLine()), upload(wideFile()), upload(manyTinyRows())]);
    const me = await api.call("GET", "/v1/me");
    expect(me.status).toBe(200);
    for (const answer of await uploads) expectApiError(answer, 413, "payload_too_large");

    expect(await api.db.import.count()).toBe(before);
    // Alive and reading files after all of it.
    const day = addDays(todayUtc(), -2);
    const fine = await upload(`Date,Amount,Currency,Description\n${day},-12.50,EUR,bounds-ok\n`);
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.data.preview.total_rows).toBe(1);
  });

  it("counts rows, not lines: one row past 250,000 is refused, a quoted line break does not count twice", async () => {
    const day = addDays(todayUtc(), -2);
    const header = "Date,Amount,Currency,Description\n";
    const tooMany = header + `${day},-1.00,EUR,r\n`.repeat(STATEMENT_MAX_ROWS + 1);
    const refused = await upload(tooMany);
    expectApiError(refused, 413, "payload_too_large");
    expect(refused.body.error.details).toEqual({ limit: "rows", max: STATEMENT_MAX_ROWS });

    const quoted = await upload(`${header}${day},-1.00,EUR,"two\nlines"\n`);
    expect(quoted.status, quoted.text).toBe(200);
    expect(quoted.body.data.preview.total_rows).toBe(1);
  });
});
