// The statement import in a real browser: a CSV built here is uploaded through the panel (with
// its progress), previewed (rows, counts, a recurring charge), confirmed with that charge
// ticked, and its lines and subscription show up on the events and subscriptions pages. An
// XLSX (serial dates, thousands-separated amounts) is converted in the browser and imports as
// the same events as its CSV twin; an XLS, a PDF and a damaged XLSX are refused in the panel. A mapping
// confirmed for a bank account reads that account's next statement.
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { xlsxFile, type TFixtureCell } from "../test/helpers/spreadsheet-files";
import { E2E_OWNER_TOKEN, SAME_ORIGIN, seriousViolations, signIn } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const BUSINESS = `Statements Ltd ${RUN}`;
const SHOTS = "test-results/screenshots";

/** A business through the REST API with the static owner token. */
async function createBusiness(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/v1/businesses", {
    headers: { Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Idempotency-Key": randomUUID() },
    data: { name, currency: "EUR" },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

let business: Promise<string> | undefined;
/** The run's business, created by whichever test runs first (each test can run alone with -g). */
function ensureBusiness(request: APIRequestContext): Promise<string> {
  business ??= createBusiness(request, BUSINESS);
  return business;
}

/** A CSV field, quoted when it holds a comma or a quote. */
const csvField = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function isoDate(year: number, monthIndex: number, day: number): string {
  const date = new Date(Date.UTC(year, monthIndex, day));
  return date.toISOString().slice(0, 10);
}

/**
 * The statement: "Acme Cloud" charging 29.00 EUR on the same day of three consecutive months
 * (the last one a few days ago, so the series is current), a client's payment and a one-off
 * purchase. ISO dates and a decimal point: what the generic preset reads.
 */
function statementCsv(): string {
  const recent = new Date(Date.now() - 4 * 24 * 60 * 60 * 1000);
  const day = Math.min(recent.getUTCDate(), 28);
  const [year, month] = [recent.getUTCFullYear(), recent.getUTCMonth()];
  const lines = [
    "Date,Amount,Currency,Description,Counterparty",
    `${isoDate(year, month - 2, day)},-29.00,EUR,Acme Cloud hosting,Acme Cloud`,
    `${isoDate(year, month - 2, Math.min(day + 1, 28))},-42.50,EUR,Office chairs ${RUN},Seat Supply`,
    `${isoDate(year, month - 1, day)},-29.00,EUR,Acme Cloud hosting,Acme Cloud`,
    `${isoDate(year, month - 1, Math.max(day - 1, 1))},1500.00,EUR,Invoice 1042 paid ${RUN},Globex`,
    `${isoDate(year, month, day)},-29.00,EUR,Acme Cloud hosting,Acme Cloud`,
  ];
  return `${lines.join("\n")}\n`;
}

async function openImports(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Imports" }).click();
  await expect(page).toHaveURL(/\/imports$/);
  await expect(page.getByRole("heading", { name: "Imports", level: 1 })).toBeVisible();
}

/** Step 1 with the business and the generic preset, then on to the upload. */
async function chooseSource(page: Page) {
  const form = page.getByRole("form", { name: "Statement source" });
  await expect(form.getByLabel("Business").locator("option", { hasText: BUSINESS })).toBeAttached();
  await form.getByLabel("Business").selectOption({ label: BUSINESS });
  await expect(form.getByLabel("Preset").locator("option", { hasText: "Generic CSV" })).toBeAttached();
  await form.getByLabel("Preset").selectOption({ label: "Generic CSV" });
  await expect(form.getByText(/Any CSV or TSV with a header row/)).toBeVisible();
  await expect(form.getByLabel("Reconcile with integrations")).toBeChecked();
  await form.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Upload the statement" })).toBeVisible();
}

test("a statement is previewed, confirmed with its recurring charge, and lands in events and subscriptions", async ({
  page,
  request,
}) => {
  await ensureBusiness(request);
  await signIn(page);
  await openImports(page);
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
  await chooseSource(page);

  const upload = page.getByRole("form", { name: "Upload the statement" });
  await upload.getByLabel("Statement file").setInputFiles({
    name: "statement.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(statementCsv(), "utf8"),
  });
  await upload.getByRole("button", { name: "Upload and preview" }).click();

  // The preview: counts, every row new, one recurring charge.
  await expect(page.getByRole("heading", { name: "Preview" })).toBeVisible();
  const counts = page.getByRole("definition");
  const stats = page.getByLabel("Import counts");
  await expect(stats.getByText("Rows in file")).toBeVisible();
  await expect(counts.first()).toHaveText("5");
  await expect(stats.locator(".import-stat", { hasText: "Would insert" }).locator("dd")).toHaveText("5");
  await expect(stats.locator(".import-stat", { hasText: "Would dedupe" }).locator("dd")).toHaveText("0");
  await expect(stats.locator(".import-stat", { hasText: "Rejected" }).locator("dd")).toHaveText("0");
  await expect(stats.locator(".import-stat", { hasText: "Unmapped columns" }).locator("dd")).toHaveText("none");

  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.locator("tbody tr")).toHaveCount(5);
  await expect(rows.locator('tbody tr[data-status="new"]')).toHaveCount(5);
  await expect(rows.getByRole("row", { name: new RegExp(`Invoice 1042 paid ${RUN}`) })).toContainText("€1,500.00");
  await expect(rows.getByRole("row", { name: /Acme Cloud hosting/ }).first()).toContainText("-€29.00");

  const proposals = page.getByRole("region", { name: "Recurring charges" });
  const acme = proposals.getByRole("row", { name: /Acme Cloud/ });
  await expect(acme).toContainText("€29.00");
  await expect(acme).toContainText("monthly");
  await expect(acme).toContainText("3×");
  await expect(acme).toContainText(/\d+%/);
  await page.screenshot({ path: `${SHOTS}/imports-preview.png`, fullPage: true });
  await page.screenshot({ path: "/tmp/imports-preview.png", fullPage: true });

  await acme.getByRole("checkbox", { name: "Create subscription Acme Cloud" }).check();
  await expect(proposals.getByText("1 of 1 selected")).toBeVisible();
  await page.getByRole("button", { name: "Confirm import" }).click();

  // The result.
  const result = page.getByRole("region", { name: "Import complete" });
  await expect(result).toBeVisible();
  await expect(result.getByTestId("import-inserted")).toHaveText("5");
  await expect(result.getByTestId("import-deduped")).toHaveText("0");
  await expect(result.getByTestId("import-rejected")).toHaveText("0");
  await expect(result.getByTestId("import-subscriptions")).toHaveText("1");
  await page.screenshot({ path: `${SHOTS}/imports-result.png`, fullPage: true });

  // The imported lines on the events page.
  await result.getByRole("link", { name: "View events" }).click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  const filters = page.getByRole("region", { name: "Filters" });
  await expect(filters.getByLabel("Business").locator("option", { hasText: BUSINESS })).toBeAttached();
  await filters.getByLabel("Business").selectOption({ label: BUSINESS });
  await expect(page.getByRole("row", { name: new RegExp(`Invoice 1042 paid ${RUN}`) })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`Office chairs ${RUN}`) })).toBeVisible();
  await expect(page.getByRole("row", { name: /Acme Cloud hosting/ })).toHaveCount(3);

  // The accepted proposal as a subscription.
  await page.goto("/subscriptions");
  await expect(page.getByRole("heading", { name: "Subscriptions", level: 1 })).toBeVisible();
  const subscription = page.getByRole("row", { name: /Acme Cloud/ });
  await expect(subscription).toBeVisible();
  await expect(subscription).toContainText("€29.00");
});

/** A day `daysAgo` before today, its day of the month above 12 so a US or German date cannot be read both ways. */
function pastDay(daysAgo: number): { y: number; m: string; d: string } {
  const date = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  while (date.getUTCDate() <= 12) date.setUTCDate(date.getUTCDate() - 1);
  return {
    y: date.getUTCFullYear(),
    m: String(date.getUTCMonth() + 1).padStart(2, "0"),
    d: String(date.getUTCDate()).padStart(2, "0"),
  };
}

async function uploadFile(page: Page, name: string, text: string) {
  const upload = page.getByRole("form", { name: "Upload the statement" });
  await upload.getByLabel("Statement file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") });
  await upload.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByRole("form", { name: "Column mapping" })).toBeVisible();
}

const stat = (page: Page, label: string) =>
  page.getByLabel("Import counts").locator(".import-stat", { hasText: label }).locator("dd");

async function confirmWithoutRejections(page: Page, inserted: number) {
  await expect(stat(page, "Rejected")).toHaveText("0");
  await page.getByRole("button", { name: "Confirm import" }).click();
  const result = page.getByRole("region", { name: "Import complete" });
  await expect(result.getByTestId("import-inserted")).toHaveText(String(inserted));
  await expect(result.getByTestId("import-rejected")).toHaveText("0");
}

test("a mm/dd/yyyy statement without a currency column goes through the mapping step without rejections", async ({
  page,
  request,
}) => {
  await ensureBusiness(request);
  await signIn(page);
  await openImports(page);
  await chooseSource(page);
  const [a, b, c] = [pastDay(40), pastDay(20), pastDay(3)];
  const text = [
    "Posted,Payee,Memo,Amount",
    `${a.m}/${a.d}/${a.y},Acme Hosting,Hosting ${RUN},-29.00`,
    `${b.m}/${b.d}/${b.y},Globex,Invoice 7 ${RUN},"1,500.00"`,
    `${c.m}/${c.d}/${c.y},Seat Supply,Chairs ${RUN},-342.50`,
  ].join("\n");
  await uploadFile(page, "us-statement.csv", text);

  // The mapping the server suggests: "Posted" holds the dates (read off the cells), in mm/dd/yyyy.
  const mapping = page.getByRole("form", { name: "Column mapping" });
  await expect(mapping.getByLabel("Date (required)")).toHaveValue("Posted");
  await expect(mapping.getByLabel("Amount (required)")).toHaveValue("Amount");
  await expect(mapping.getByLabel("Date format")).toHaveValue("mm/dd/yyyy");
  await expect(mapping.getByLabel("Number format")).toHaveValue("1,234.56");
  // No currency column: the business's currency.
  await expect(mapping.getByLabel("Default currency")).toHaveValue("EUR");
  await expect(mapping.getByLabel("Currency", { exact: true })).toHaveValue("");
  await expect(stat(page, "Rejected")).toHaveText("0");
  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.getByRole("row", { name: new RegExp(`Invoice 7 ${RUN}`) })).toContainText("€1,500.00");

  // A wrong date format rejects rows, each with its reason and its cells; fixing it needs no new upload.
  await mapping.getByLabel("Date format").selectOption("dd/mm/yyyy");
  await expect(stat(page, "Rejected")).toHaveText("3");
  const rejected = rows.locator('tbody tr[data-status="rejected"]').first();
  await expect(rejected).toContainText("unparsable date");
  const cells = rejected.getByLabel("Cells in the file");
  await expect(cells).toContainText("Posted");
  await expect(cells).toContainText(`${a.m}/${a.d}/${a.y}`);
  await expect(cells).toContainText(`Hosting ${RUN}`);
  await page.screenshot({ path: `${SHOTS}/imports-mapping-rejected.png`, fullPage: true });
  // The mapping card and the rejected rows pass axe (no serious or critical violation).
  expect(
    await seriousViolations(page, {
      include: ['section[aria-labelledby="import-mapping-heading"]', 'section[aria-labelledby="import-rows-heading"]'],
    }),
  ).toEqual([]);
  await mapping.getByLabel("Date format").selectOption("mm/dd/yyyy");
  await expect(stat(page, "Rejected")).toHaveText("0");
  await mapping.getByLabel("Default currency").selectOption("USD");
  await expect(rows.getByRole("row", { name: new RegExp(`Invoice 7 ${RUN}`) })).toContainText("$1,500.00");
  await page.screenshot({ path: `${SHOTS}/imports-mapping.png`, fullPage: true });

  // The phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/imports-mapping-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await confirmWithoutRejections(page, 3);
});

test("a German statement (dd.mm.yyyy, 1.234,56, semicolons) goes through the mapping step without rejections", async ({
  page,
  request,
}) => {
  await ensureBusiness(request);
  await signIn(page);
  await openImports(page);
  await chooseSource(page);
  const [a, b, c] = [pastDay(35), pastDay(15), pastDay(2)];
  const text = [
    "Buchungstag;Verwendungszweck;Empfänger;Betrag;Währung",
    `${a.d}.${a.m}.${a.y};Miete ${RUN};Hausverwaltung;-1.234,56;EUR`,
    `${b.d}.${b.m}.${b.y};Rechnung 12 ${RUN};Kunde GmbH;2.000,00;EUR`,
    `${c.d}.${c.m}.${c.y};Kaffee ${RUN};Café;-3,50;EUR`,
  ].join("\r\n");
  await uploadFile(page, "kontoauszug.csv", text);

  const mapping = page.getByRole("form", { name: "Column mapping" });
  await expect(mapping.getByLabel("Date format")).toHaveValue("dd.mm.yyyy");
  await expect(mapping.getByLabel("Number format")).toHaveValue("1.234,56");
  await expect(mapping.getByLabel("Date (required)")).toHaveValue("Buchungstag");
  await expect(mapping.getByLabel("Description (required)")).toHaveValue("Verwendungszweck");
  // The counterparty column has a name the preset does not know: the owner maps it, and the preview follows.
  await mapping.getByLabel("Counterparty", { exact: true }).selectOption("Empfänger");
  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.getByRole("row", { name: new RegExp(`Miete ${RUN}`) })).toContainText("Hausverwaltung");
  await expect(rows.getByRole("row", { name: new RegExp(`Miete ${RUN}`) })).toContainText("-€1,234.56");
  await expect(stat(page, "Would insert")).toHaveText("3");
  await confirmWithoutRejections(page, 3);
});

test("an XLS, a PDF and a damaged XLSX are refused in the panel, saying what to do", async ({ page, request }) => {
  await ensureBusiness(request);
  await signIn(page);
  await openImports(page);
  await chooseSource(page);

  const upload = page.getByRole("form", { name: "Upload the statement" });
  await expect(
    upload.getByText(
      /Your bank statement as CSV or TSV, OFX or QFX, CAMT.053 or CAMT.052 \(XML\), MT940, QIF, XLSX or ODS, at most 10 MB\./,
    ),
  ).toBeVisible();
  const refusals: Array<[string, string, Buffer, RegExp]> = [
    // The old binary spreadsheet (XLS, an OLE2 compound file): D0 CF 11 E0 A1 B1 1A E1.
    [
      "statement.xls",
      "application/vnd.ms-excel",
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, 0)]),
      /old binary Excel file \(XLS\).*Save it as XLSX, ODS or CSV/,
    ],
    ["statement.pdf", "application/pdf", Buffer.from("%PDF-1.7\n%\xe2\xe3\n1 0 obj\n", "latin1"), /This is a PDF/],
    // The XLSX (zip) signature, then nothing a zip holds.
    [
      "statement.xlsx",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), Buffer.alloc(64, 0)]),
      /not a readable XLSX or ODS spreadsheet/,
    ],
  ];
  for (const [name, mimeType, buffer, message] of refusals) {
    await upload.getByLabel("Statement file").setInputFiles({ name, mimeType, buffer });
    await expect(upload.getByRole("alert")).toContainText(message);
    await upload.getByRole("button", { name: "Upload and preview" }).click();
    await expect(upload.getByRole("alert")).toContainText(message);
    await expect(upload.getByRole("button", { name: "Upload and preview" })).toBeEnabled();
    await expect(page.getByRole("heading", { name: "Preview" })).toHaveCount(0);
  }
});

test("an XLSX with serial dates and thousands-separated amounts imports as the same events as its CSV twin", async ({
  page,
  request,
}) => {
  await ensureBusiness(request);
  const days = [pastDay(20), pastDay(9), pastDay(3)].map(({ y, m, d }) => `${y}-${m}-${d}`);
  const lines: Array<[string, string, string, string]> = [
    [days[0]!, "1234567.89", `Wire from Globex ${RUN}`, "Globex"],
    [days[1]!, "-1250.50", `Laptop ${RUN}`, "Computer Shop"],
    [days[2]!, "-29.00", `Hosting, monthly ${RUN}`, "Acme Cloud"],
  ];
  // The spreadsheet: the dates as serial days under Excel's date style, the amounts as numbers
  // under #,##0.00 (shown 1,234,567.89), the text in shared strings; a second sheet of notes.
  const xlsx = xlsxFile([
    {
      name: "Giro",
      rows: [
        [{ text: "Date" }, { text: "Amount" }, { text: "Currency" }, { text: "Description" }, { text: "Counterparty" }],
        ...lines.map(([date, amount, description, counterparty]): TFixtureCell[] => [
          { date },
          { number: amount, format: "thousands" },
          { text: "EUR" },
          { text: description },
          { text: counterparty },
        ]),
      ],
    },
    { name: "Notes", rows: [[{ text: "checked by the accountant" }]] },
  ]);
  const csv = [
    "Date,Amount,Currency,Description,Counterparty",
    ...lines.map(([date, amount, description, counterparty]) =>
      [date, amount, "EUR", description, counterparty].map(csvField).join(","),
    ),
  ].join("\n");

  await signIn(page);
  await openImports(page);
  await chooseSource(page);
  const upload = page.getByRole("form", { name: "Upload the statement" });
  await upload.getByLabel("Statement file").setInputFiles({
    name: "statement.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: Buffer.from(xlsx),
  });
  await expect(upload.getByText("XLSX, converted to CSV before the upload")).toBeVisible();
  await expect(upload.getByLabel("Sheet")).toHaveValue("0");
  await expect(upload.getByLabel("Sheet").locator("option")).toHaveText(["Giro", "Notes"]);
  await upload.getByRole("button", { name: "Upload and preview" }).click();

  await expect(page.getByRole("heading", { name: "Preview" })).toBeVisible();
  await expect(stat(page, "Would insert")).toHaveText("3");
  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.getByRole("row", { name: new RegExp(`Wire from Globex ${RUN}`) })).toContainText("€1,234,567.89");
  await expect(rows.getByRole("row", { name: new RegExp(`Wire from Globex ${RUN}`) })).toContainText(days[0]!);
  await expect(rows.getByRole("row", { name: new RegExp(`Laptop ${RUN}`) })).toContainText("-€1,250.50");
  await page.screenshot({ path: `${SHOTS}/imports-xlsx-preview.png`, fullPage: true });
  await confirmWithoutRejections(page, 3);

  // The CSV twin: the same three events, so all three dedupe and nothing is inserted.
  await page.getByRole("button", { name: "Import another statement" }).click();
  await chooseSource(page);
  await upload
    .getByLabel("Statement file")
    .setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await upload.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByRole("heading", { name: "Preview" })).toBeVisible();
  await expect(stat(page, "Would insert")).toHaveText("0");
  await expect(stat(page, "Would dedupe")).toHaveText("3");
  await expect(page.getByRole("region", { name: "Rows" }).locator('tbody tr[data-status="already"]')).toHaveCount(3);
  // Nothing new to book: Confirm has nothing to do.
  await expect(page.getByRole("button", { name: "Confirm import" })).toBeDisabled();
});

test("a file over 10 MB is refused with the server's message", async ({ page, request }) => {
  await ensureBusiness(request);
  await signIn(page);
  await openImports(page);
  await chooseSource(page);

  const upload = page.getByRole("form", { name: "Upload the statement" });
  const line = "2026-01-01,-1.00,EUR,Padding line for a large statement,Nobody\n";
  const big = Buffer.from(
    `Date,Amount,Currency,Description,Counterparty\n${line.repeat(Math.ceil((11 * 1024 * 1024) / line.length))}`,
  );
  await upload.getByLabel("Statement file").setInputFiles({ name: "huge.csv", mimeType: "text/csv", buffer: big });
  await upload.getByRole("button", { name: "Upload and preview" }).click();
  // The contract's error body (413 payload_too_large), in the server's words.
  await expect(upload.getByRole("alert")).toContainText(/exceeds \d+ bytes/);
  await expect(upload.getByRole("alert")).toContainText("at most 10 MB");
  await expect(upload.getByRole("button", { name: "Upload and preview" })).toBeEnabled();
});

test("the panel's upload endpoint wants this site and a signed-in panel", async ({ request }) => {
  const form = { business_id: randomUUID(), file: { name: "s.csv", mimeType: "text/csv", buffer: Buffer.from("Date\n") } };
  const foreign = await request.post("/api/panel/imports", {
    headers: { Origin: "https://evil.example", "Idempotency-Key": randomUUID(), Authorization: `Bearer ${E2E_OWNER_TOKEN}` },
    multipart: form,
  });
  expect(foreign.status()).toBe(403);
  expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("csrf_rejected");

  const signedOut = await request.post("/api/panel/imports", {
    headers: { ...SAME_ORIGIN, "Idempotency-Key": randomUUID() },
    multipart: form,
  });
  expect(signedOut.status()).toBe(401);
  expect(((await signedOut.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
});

test("the file's preset is suggested and taken, and a row's project chosen in the preview lands on its event", async ({
  page,
  request,
}) => {
  const businessId = await ensureBusiness(request);
  const projectName = `Shopfront ${RUN}`;
  const created = await request.post(`/v1/businesses/${businessId}/projects`, {
    headers: { Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Idempotency-Key": randomUUID() },
    data: { name: projectName },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { data: { id: string } }).data.id;

  await signIn(page);
  await openImports(page);
  await chooseSource(page);
  const [a, b] = [pastDay(30), pastDay(4)];
  // A German bank's export: "Kundenreferenz" is a name only the EU preset knows.
  const text = [
    "Buchungstag;Verwendungszweck;Betrag;Währung;Kundenreferenz",
    `${a.d}.${a.m}.${a.y};Werbung ${RUN};-250,00;EUR;K-${RUN}-1`,
    `${b.d}.${b.m}.${b.y};Porto ${RUN};-4,20;EUR;K-${RUN}-2`,
  ].join("\r\n");
  await uploadFile(page, "eu-bank.csv", text);

  const mappingCard = page.getByRole("region", { name: "Column mapping" });
  const mapping = page.getByRole("form", { name: "Column mapping" });
  await expect(mappingCard.getByText("This file matches the preset “EU bank (semicolon, dd.mm.yyyy)”.")).toBeVisible();
  await expect(mapping.getByLabel("Reference")).toHaveValue("");
  await mappingCard.screenshot({ path: `${SHOTS}/imports-suggestion.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await mappingCard.screenshot({ path: `${SHOTS}/imports-suggestion-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await mappingCard.getByRole("button", { name: "Use EU bank (semicolon, dd.mm.yyyy)" }).click();
  await expect(mapping.getByLabel("Reference")).toHaveValue("Kundenreferenz");
  await expect(mappingCard.getByText(/matches the preset/)).toHaveCount(0);
  await expect(stat(page, "Would insert")).toHaveText("2");

  // The row's project: "No project" until the owner picks the business's project.
  const rows = page.getByRole("region", { name: "Rows" });
  const row = rows.getByRole("row", { name: new RegExp(`Werbung ${RUN}`) });
  const project = row.getByRole("combobox", { name: /^Project of row/ });
  await expect(project).toHaveValue("");
  await project.selectOption({ label: projectName });
  await page.screenshot({ path: `${SHOTS}/imports-suggestion-project.png`, fullPage: true });
  expect(
    await seriousViolations(page, {
      include: ['section[aria-labelledby="import-mapping-heading"]', 'section[aria-labelledby="import-rows-heading"]'],
    }),
  ).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/imports-suggestion-project-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await confirmWithoutRejections(page, 2);

  const events = await request.get(`/v1/events?business_id=${businessId}&q=${encodeURIComponent(RUN)}&limit=100`, {
    headers: { Authorization: `Bearer ${E2E_OWNER_TOKEN}` },
  });
  expect(events.status()).toBe(200);
  const list = ((await events.json()) as { data: Array<{ description: string | null; project_id: string | null }> }).data;
  expect(list.find((event) => event.description === `Werbung ${RUN}`)?.project_id).toBe(projectId);
  expect(list.find((event) => event.description === `Porto ${RUN}`)?.project_id ?? null).toBeNull();
});

test("the mapping confirmed for a bank account reads that account's next statement, even with another header", async ({
  page,
  request,
}) => {
  await ensureBusiness(request);
  const account = `Main card ${RUN}`;
  await signIn(page);
  await openImports(page);
  await chooseSource(page);

  // The account field: blanks and hyphens alone are no account, said at once with the missing file.
  const upload = page.getByRole("form", { name: "Upload the statement" });
  const accountField = upload.getByLabel("Bank account (optional)");
  await expect(upload.getByText("IBAN or a name; the column mapping you confirm is remembered for this account.")).toBeVisible();
  await accountField.fill(" - ");
  await upload.getByRole("button", { name: "Upload and preview" }).click();
  await expect(upload.getByRole("alert").first()).toContainText("Choose the statement file first.");
  await expect(upload.getByText(/The bank account needs a letter or digit/)).toBeVisible();
  await expect(accountField).toHaveAttribute("aria-invalid", "true");
  await accountField.fill(account);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/imports-account-phone.png`, fullPage: true });
  expect(await seriousViolations(page, { include: ['section[aria-labelledby="import-upload-heading"]'] })).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The first statement: the payee column has a name no preset knows; the owner maps it.
  const [a, b] = [pastDay(33), pastDay(6)];
  const first = [
    "Datum;Verwendungszweck;Zahlungsempfänger;Betrag",
    `${a.d}.${a.m}.${a.y};Tanken ${RUN};Tankstelle Nord;-61,20`,
  ].join("\r\n");
  await uploadFile(page, "card-1.csv", first);
  const mapping = page.getByRole("form", { name: "Column mapping" });
  await expect(mapping.getByLabel("Counterparty", { exact: true })).toHaveValue("");
  await mapping.getByLabel("Counterparty", { exact: true }).selectOption("Zahlungsempfänger");
  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.getByRole("row", { name: new RegExp(`Tanken ${RUN}`) })).toContainText("Tankstelle Nord");
  await confirmWithoutRejections(page, 1);

  // The next statement of that card, now with a balance column (another header): the account's mapping reads it.
  await page.getByRole("button", { name: "Import another statement" }).click();
  await chooseSource(page);
  await expect(accountField).toHaveValue(account);
  await expect(upload.locator(`datalist option[value="${account}"]`)).toBeAttached();
  await accountField.fill(`main-card ${RUN.toLowerCase()}`);
  const second = [
    "Datum;Verwendungszweck;Zahlungsempfänger;Betrag;Saldo",
    `${b.d}.${b.m}.${b.y};Parken ${RUN};Parkhaus Mitte;-4,50;1.000,00`,
  ].join("\r\n");
  await uploadFile(page, "card-2.csv", second);
  const mappingCard = page.getByRole("region", { name: "Column mapping" });
  await expect(mappingCard.getByText(`Mapping remembered for main-card ${RUN.toLowerCase()}.`)).toBeVisible();
  await expect(mapping.getByLabel("Counterparty", { exact: true })).toHaveValue("Zahlungsempfänger");
  await expect(rows.getByRole("row", { name: new RegExp(`Parken ${RUN}`) })).toContainText("Parkhaus Mitte");
  expect(await seriousViolations(page, { include: ['section[aria-labelledby="import-mapping-heading"]'] })).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/imports-account-remembered-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await confirmWithoutRejections(page, 1);
});
