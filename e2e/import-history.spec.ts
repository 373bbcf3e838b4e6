// Issue 32 in a real browser: payments entered by hand, then the bank's statement of them (dd.mm.yyyy,
// 1.234,56). The preview shows each row beside the entry it matches, with a "Not the same" switch;
// the import history lists the import with its counts; the ledger offers Correct and Void on the
// imported lines (Void only on a line matched to an entry); Revert says what it will void, then
// does it. Axe finds nothing serious in light and dark, on a desktop and a 390 px phone. An owner of
// its own, so the history starts empty.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { apiSession, asBearer, lightAndDarkPasses, seriousViolations, signIn, switchPass } from "./support";

test.describe.configure({ mode: "serial" });

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let token: string;
let businessName: string;

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const euDate = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

const PAYMENTS = [
  { path: "/v1/expenses", amount: 123_456, on: day(20), text: "Office rent", line: "-1.234,56" },
  { path: "/v1/revenues", amount: 250_000, on: day(15), text: "Invoice 17", line: "2.500,00" },
  { path: "/v1/expenses", amount: 4_999, on: day(10), text: "Hosting", line: "-49,99" },
];

async function axeEverywhere(page: Page, label: string) {
  for (const [scheme, device, viewport] of lightAndDarkPasses(DESKTOP, PHONE)) {
    await switchPass(page, scheme, viewport);
    expect(await seriousViolations(page), `axe on ${label}, ${scheme} ${device}`).toEqual([]);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${label} fits the ${device}`).toBeLessThanOrEqual(viewport.width);
  }
  await switchPass(page, "light", DESKTOP);
}

test.beforeAll(async ({ request }) => {
  token = await apiSession(request, `imports-history-${RUN}-${randomUUID().slice(0, 8)}@e2e.test`);
  businessName = `Overlap Studio ${RUN}`;
  const business = await asBearer(request, token, "POST", "/v1/businesses", { name: businessName, currency: "EUR" });
  expect(business.status()).toBe(201);
  const businessId = ((await business.json()) as { data: { id: string } }).data.id;
  for (const p of PAYMENTS) {
    const created = await asBearer(request, token, "POST", p.path, {
      business_id: businessId,
      amount_minor: p.amount,
      currency: "EUR",
      occurred_on: p.on,
      description: p.text,
    });
    expect(created.status()).toBe(201);
  }
});

test("an empty history says what to do", async ({ page }) => {
  await signIn(page, token);
  await page.goto("/imports");
  const history = page.getByRole("region", { name: "Import history" });
  await expect(history.getByText("No imports yet")).toBeVisible();
  await expect(history.getByText(/Statements you upload above are listed here/)).toBeVisible();
});

test("the preview shows the entries the rows match, books both for 'Not the same', and the history can revert it", async ({
  page,
}) => {
  // A whole journey (upload, preview, confirm, ledger, void, revert) with axe at each step: 22 s alone.
  test.setTimeout(60_000);
  await signIn(page, token);
  await page.goto("/imports");

  const source = page.getByRole("form", { name: "Statement source" });
  await expect(source.getByLabel("Business").locator("option", { hasText: businessName })).toBeAttached();
  await source.getByLabel("Business").selectOption({ label: businessName });
  await expect(source.getByLabel("Preset").locator("option", { hasText: "EU bank" })).toBeAttached();
  await source.getByLabel("Preset").selectOption({ label: "EU bank (semicolon, dd.mm.yyyy)" });
  await source.getByRole("button", { name: "Continue" }).click();
  // The bank books each payment a day or two after it was entered.
  const csv = [
    "Buchungstag;Betrag;Währung;Verwendungszweck",
    ...PAYMENTS.map((p, i) => `${euDate(day(20 - 5 * i - 1 - (i % 2)))};${p.line};EUR;${p.text.toUpperCase()} ${RUN}`),
  ].join("\n");
  const upload = page.getByRole("form", { name: "Upload the statement" });
  await upload.getByLabel("Statement file").setInputFiles({ name: "bank.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await upload.getByRole("button", { name: "Upload and preview" }).click();

  const rows = page.getByRole("region", { name: "Rows" });
  await expect(rows.locator('tbody tr[data-status="reconciled"]')).toHaveCount(3);
  const rent = rows.getByRole("row", { name: /OFFICE RENT/ });
  await expect(rent).toContainText(`Same as your entry of ${PAYMENTS[0]!.on}`);
  await expect(rent).toContainText("Office rent");
  await expect(rent).toContainText("-€1,234.56");
  const stat = page.getByLabel("Import counts").locator(".import-stat", { hasText: "Match your entries" }).locator("dd");
  await expect(stat).toHaveText("3");
  await axeEverywhere(page, "the preview with matched rows");
  await page.screenshot({ path: `${SHOTS}/imports-matched-preview.png`, fullPage: true });
  await switchPass(page, "light", PHONE);
  await page.screenshot({ path: `${SHOTS}/imports-matched-preview-phone.png`, fullPage: true });
  await switchPass(page, "light", DESKTOP);

  // The hosting line is other money: both are booked.
  const hosting = rows.getByRole("row", { name: /HOSTING/ });
  await hosting.getByRole("checkbox", { name: "Not the same: book both" }).check();
  await expect(hosting.locator(".pill")).toHaveText("new");
  await expect(stat).toHaveText("2");
  await page.getByRole("button", { name: "Confirm import" }).click();
  await expect(page.getByRole("region", { name: "Import complete" }).getByTestId("import-inserted")).toHaveText("3");

  // The history lists it with its counts.
  const history = page.getByRole("region", { name: "Import history" });
  const entry = history.getByRole("row", { name: /bank\.csv/ });
  await expect(entry).toContainText("3 events booked");
  await expect(entry).toContainText("2 matched to your entries");
  await expect(entry.locator(".pill")).toHaveText("confirmed");
  await expect(entry).toContainText("EU bank (semicolon, dd.mm.yyyy)");

  // The ledger: the kept line can be corrected and voided; a matched line only voided.
  await page.goto("/events");
  const keptLine = page.getByRole("row", { name: new RegExp(`HOSTING ${RUN}`) });
  await expect(keptLine.getByRole("button", { name: /^Correct / })).toBeVisible();
  await expect(keptLine.getByRole("button", { name: /^Void / })).toBeVisible();
  const matchedLine = page.getByRole("row", { name: new RegExp(`OFFICE RENT ${RUN}`) });
  await expect(matchedLine).toContainText("matched to another entry, not counted");
  await expect(matchedLine.getByRole("button", { name: /^Correct / })).toHaveCount(0);
  await keptLine.getByRole("button", { name: /^Void / }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Importing the same statement again will not bring this line back");
  await dialog.getByRole("button", { name: "Void event" }).click();
  await expect(dialog).toBeHidden();
  await expect(keptLine).toContainText("voided");

  // Revert: what it will do, then what it did.
  await page.goto("/imports");
  await history.getByRole("button", { name: "Revert bank.csv" }).click();
  const confirm = page.getByRole("region", { name: "Revert “bank.csv”?" });
  await expect(confirm).toContainText("Every event this import booked (3) is voided");
  await expect(confirm).toContainText("2 lines were matched to entries you already had: those entries stay and keep counting.");
  await expect(confirm).toContainText("Lines you corrected or voided since the import are left as they are.");
  await axeEverywhere(page, "the revert confirmation");
  await page.screenshot({ path: `${SHOTS}/imports-revert-confirm.png`, fullPage: true });
  await confirm.getByRole("button", { name: "Revert import" }).click();
  await expect(page.getByRole("status").filter({ hasText: "was reverted" })).toContainText(
    "bank.csv was reverted: 2 events voided; 1 line you had corrected or voided left as they are.",
  );
  await expect(entry.locator(".pill")).toHaveText("reverted");
  await expect(history.getByRole("button", { name: "Revert bank.csv" })).toHaveCount(0);
  await axeEverywhere(page, "the history after a revert");
  await page.screenshot({ path: `${SHOTS}/imports-history.png`, fullPage: true });
  await switchPass(page, "dark", PHONE);
  await page.screenshot({ path: `${SHOTS}/imports-history-phone-dark.png`, fullPage: true });
});
