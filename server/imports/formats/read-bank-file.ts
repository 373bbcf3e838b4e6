// A bank statement file (OFX, CAMT, MT940, QIF) → the parsed statement every import goes on
// with (preview, dedupe, reconciliation, proposals, confirm): recognized by its content, read
// by its mapper, its entries made rows with their external_id, and its balances checked per
// account (pinned-wave3 §3).
//
// external_id of a row with the bank's own id: "imp_" + 32 hex of SHA-256 over (the account in
// its comparison form, the bank id): the same payment in an overlapping statement of the same
// account, in any format, has the same id. A bank id repeated within one account's rows of a file
// (it should not be) numbers its repeats, so neither is lost. A row without a bank id takes the
// hash rule of CSV rows (external-id.ts).
import { hash } from "node:crypto";
import { createExternalIdAssigner, IMPORT_ID_PREFIX } from "../external-id";
import { normalizeAccount } from "../normalize-row";
import type { TParsedRow, TParsedStatement, TParseOptions } from "../parse-statement";
import { FIELDS } from "../presets";
import { STATEMENT_MAX_ROWS, statementTooLarge } from "../statement-limits";
import type { TBalanceCheck, TBankFile, TBankFormat } from "./bank-statement";
import { camtFormatOf, parseCamt } from "./camt";
import { looksLikeMt940, parseMt940 } from "./mt940";
import { parseOfx } from "./ofx";
import { looksLikeQif, parseQif } from "./qif";

/** Which bank format the text is, from its content (null: a CSV or TSV). */
export function detectBankFormat(text: string): TBankFormat | null {
  const head = text.slice(0, 4096);
  if (/^\s*OFXHEADER\s*[:=]/i.test(head) || /<\?OFX\s/i.test(head) || /^\s*(<\?xml[^>]*>\s*)?<OFX>/i.test(head)) return "ofx";
  if (/^\s*(\uFEFF)?\s*</.test(head)) {
    const camt = camtFormatOf(text);
    if (camt) return camt;
  }
  if (looksLikeMt940(text)) return "mt940";
  if (looksLikeQif(text)) return "qif";
  return null;
}

export function readBankFile(text: string, format: TBankFormat, currencyDefault: string): TBankFile {
  switch (format) {
    case "ofx":
      return parseOfx(text);
    case "camt053":
    case "camt052":
      return parseCamt(text, format);
    case "mt940":
      return parseMt940(text);
    case "qif":
      return parseQif(text, currencyDefault);
  }
}

const LIMITS = { description: 1000, counterparty: 200, reference: 255, account: 64 } as const;
const STORABLE_DAY = /^\d{4}-\d{2}-\d{2}$/;

function cut(text: string | undefined, max: number): string | undefined {
  return text === undefined ? undefined : text.length > max ? text.slice(0, max) : text;
}

export function bankExternalId(account: string, bankId: string, occurrence: number): string {
  const key = JSON.stringify(["bank", normalizeAccount(account), bankId]) + (occurrence > 1 ? `\u0000${occurrence}` : "");
  return `${IMPORT_ID_PREFIX}${hash("sha256", key, "hex").slice(0, 32)}`;
}

/** The balance checks per account and currency, statements of one account in file order taken as one. */
export function balanceChecks(file: TBankFile, fallbackAccount: string): TBalanceCheck[] {
  const checks = new Map<string, TBalanceCheck & { seenOpening: boolean }>();
  for (const statement of file.statements) {
    if (!statement.opening && !statement.closing) continue;
    const account = statement.account || fallbackAccount;
    const key = `${normalizeAccount(account)}|${statement.currency}`;
    const check = checks.get(key) ?? {
      account,
      currency: statement.currency,
      opening_minor: null,
      closing_minor: null,
      closing_on: null,
      rows_sum_minor: 0,
      difference_minor: null,
      ok: null,
      seenOpening: false,
    };
    checks.set(key, check);
    if (statement.opening && !check.seenOpening) {
      check.opening_minor = statement.opening.amount_minor;
      check.seenOpening = true;
    }
    if (statement.closing) {
      check.closing_minor = statement.closing.amount_minor;
      check.closing_on = statement.closing.on;
    }
    for (const entry of statement.entries) check.rows_sum_minor += entry.amount_minor;
  }
  return [...checks.values()].map(({ seenOpening: _seen, ...check }) => {
    if (check.opening_minor !== null && check.closing_minor !== null) {
      check.difference_minor = check.closing_minor - (check.opening_minor + check.rows_sum_minor);
      check.ok = check.difference_minor === 0;
    }
    return check;
  });
}

/** The bank file's entries as the rows of a parsed statement. */
export function parseBankStatement(text: string, format: TBankFormat, options: TParseOptions): TParsedStatement {
  const file = readBankFile(text, format, options.currencyDefault ?? "");
  const count = file.statements.reduce((sum, s) => sum + s.entries.length, 0);
  if (count > STATEMENT_MAX_ROWS) {
    throw statementTooLarge("rows", STATEMENT_MAX_ROWS, `The statement has more than ${STATEMENT_MAX_ROWS} transactions`);
  }
  const own = new Set((options.ownAccounts ?? []).map(normalizeAccount).filter((a) => a !== ""));
  const fallbackAccount = options.account ?? "";
  const assigner = createExternalIdAssigner();
  const seenBankIds = new Map<string, number>();
  const rows: TParsedRow[] = [];
  let skipped = 0;
  let row = 0;
  for (const statement of file.statements) {
    const account = cut(statement.account || fallbackAccount, LIMITS.account)!;
    for (const entry of statement.entries) {
      row++;
      const raw = [entry.at, entry.occurred_on, String(entry.amount_minor), entry.currency, entry.description];
      if (entry.counterparty_account && own.has(normalizeAccount(entry.counterparty_account))) {
        skipped++;
        continue;
      }
      if (entry.amount_minor === 0) {
        rows.push({ row, rejected: `${entry.at}: amount is zero (no money moved)`, raw });
        continue;
      }
      if (!STORABLE_DAY.test(entry.occurred_on) || (options.latestDay && entry.occurred_on > options.latestDay)) {
        rows.push({ row, rejected: `date ${entry.occurred_on} is in the future`, raw });
        continue;
      }
      const fields = {
        occurred_on: entry.occurred_on,
        amount_minor: entry.amount_minor,
        currency: entry.currency,
        description: cut(entry.description || entry.counterparty, LIMITS.description)!,
        counterparty: cut(entry.counterparty, LIMITS.counterparty)!,
        counterparty_account: cut(entry.counterparty_account, LIMITS.account),
        reference: cut(entry.reference, LIMITS.reference),
        ...(account ? { account } : {}),
      };
      let external_id: string;
      if (entry.bank_id) {
        const key = `${normalizeAccount(account)}\u0000${entry.bank_id}`;
        const occurrence = (seenBankIds.get(key) ?? 0) + 1;
        seenBankIds.set(key, occurrence);
        external_id = bankExternalId(account, entry.bank_id, occurrence);
      } else external_id = assigner.next(fields).external_id;
      rows.push({ row, external_id, ...fields });
    }
  }
  return {
    rows,
    total_rows: count,
    skipped_transfers: skipped,
    unmapped_columns: [],
    header: [],
    mapping: {
      delimiter: ",",
      date_format: "yyyy-mm-dd",
      decimal_separator: ".",
      thousands_separator: null,
      sign_convention: "signed",
      columns: Object.fromEntries(FIELDS.map((field) => [field, null])) as TParsedStatement["mapping"]["columns"],
    },
    guesses: {},
    format: file.format,
    balance_check: balanceChecks(file, fallbackAccount),
  };
}
