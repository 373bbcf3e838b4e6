// The detected preset is a suggestion (issue 14), through the REST layer on PGlite and on
// PostgreSQL: preview.suggested_preset for a file with another preset's header, and the
// re-preview (POST /v1/imports/{id}/preview) with that preset.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayParts, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness } from "../../test/helpers/seed";

let api: TTestApi;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  businessId = (await seedBusiness(api, { name: `Suggestion ${randomUUID().slice(0, 8)}`, currency: "EUR" })).id;
});
afterAll(async () => api?.close());

/** A recent day written dd.mm.yyyy, its day of the month above 12 (unambiguous). */
function germanDay(offset: number): { iso: string; de: string } {
  let iso = addDays(todayUtc(), -offset);
  while (dayParts(iso)[2] <= 12) iso = addDays(iso, -1);
  const [y, m, d] = dayParts(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { iso, de: `${pad(d)}.${pad(m)}.${y}` };
}

function upload(file: string, fields: Record<string, string> = {}) {
  return callMultipart(api.handler, "/v1/imports", { fields: { business_id: businessId, ...fields }, file: { bytes: file } });
}

describe("suggested_preset", () => {
  it("suggests the EU preset for a German bank file uploaded as generic, and the re-preview applies it", async () => {
    const tag = randomUUID().slice(0, 8);
    const [a, b] = [germanDay(20), germanDay(3)];
    const file = [
      "Buchungstag;Verwendungszweck;Betrag;Währung;Kundenreferenz",
      `${a.de};Miete ${tag};-1.234,56;EUR;R-${tag}-1`,
      `${b.de};Rechnung ${tag};2.000,00;EUR;R-${tag}-2`,
    ].join("\r\n");
    const response = await upload(file);
    expect(response.status, response.text).toBe(200);
    const { import_id: id, preview } = response.body.data;
    expect(preview.suggested_preset).toEqual({ id: "bank_eu_semicolon", name: "EU bank (semicolon, dd.mm.yyyy)" });
    // The generic preset has no name for Kundenreferenz.
    expect(preview.mapping.columns.reference).toBeNull();

    const again = await api.call("POST", `/v1/imports/${id}/preview`, { body: { preset: "bank_eu_semicolon" } });
    expect(again.status, again.text).toBe(200);
    const next = again.body.data.preview;
    expect(next.suggested_preset).toBeNull();
    expect(next.mapping_source).toBe("preset");
    expect(next.mapping.columns.reference).toBe("Kundenreferenz");
    expect(next.rejected_count).toBe(0);
    expect(next.rows).toMatchObject([
      { occurred_on: a.iso, amount_minor: -123456, currency: "EUR", reference: `R-${tag}-1` },
      { occurred_on: b.iso, amount_minor: 200000, currency: "EUR", reference: `R-${tag}-2` },
    ]);
    const stored = await api.call("GET", `/v1/imports/${id}`);
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.data).toMatchObject({ preset: "bank_eu_semicolon", summary: { suggested_preset: null } });

    // An unknown preset answers 400 as on upload; the import keeps its preset.
    const bad = await api.call("POST", `/v1/imports/${id}/preview`, { body: { preset: "no_such_bank" } });
    expectApiError(bad, 400, "validation_error");
    const confirmed = await api.call("POST", `/v1/imports/${id}/confirm`, { body: {} });
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.data.inserted).toBe(2);
  });

  it("suggests nothing when the preset in use fits best", async () => {
    const tag = randomUUID().slice(0, 8);
    const day = germanDay(5);
    const file = [
      "Buchungstag;Verwendungszweck;Betrag;Währung;Kundenreferenz",
      `${day.de};Strom ${tag};-80,00;EUR;S-${tag}`,
    ].join("\n");
    const response = await upload(file, { preset: "bank_eu_semicolon" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.preview.suggested_preset).toBeNull();
  });

  it("appears in the OpenAPI document", async () => {
    const doc = await api.call("GET", "/v1/openapi.json", { token: null });
    expect(doc.body.components.schemas.ImportPreview.properties.suggested_preset).toBeDefined();
    const body = doc.body.paths["/v1/imports/{id}/preview"].post.requestBody.content["application/json"].schema;
    expect(JSON.stringify(body)).toContain("preset");
  });
});
