// ISO 20022 bank-to-customer statements: CAMT.053 (BkToCstmrStmt/Stmt) and CAMT.052
// (BkToCstmrAcctRpt/Rpt), message versions 001.02 to 001.08 (the elements read here kept their
// names and places across them; only the entry status became a code element in .08, and the
// parties a Pty wrapper). The XML is parsed by fast-xml-parser (namespace prefixes dropped, every
// value kept as written); this mapper only picks the elements.
//
// Per entry (Ntry): booked ones only (Sts BOOK; pending and information entries of a report are
// not bookings); the sign from CdtDbtInd (a reversal, RvslInd true, moves money the way its
// CdtDbtInd says and is labelled a reversal); a batched entry (several TxDtls with amounts) is one
// row per transaction, each with the bank id of the entry and its own reference.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  currencyOf,
  malformed,
  dayOf,
  tidy,
  toMinor,
  type TBankAccountStatement,
  type TBankEntry,
  type TBankFile,
  type TBankFormat,
} from "./bank-statement";

type TX = Record<string, unknown>;

const ARRAYS = new Set(["Stmt", "Rpt", "Ntry", "NtryDtls", "TxDtls", "Bal", "Ustrd", "AddtlNtryInf"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

function obj(value: unknown): TX | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as TX) : undefined;
}

function list(value: unknown): TX[] {
  return Array.isArray(value) ? value.flatMap((v) => (obj(v) ? [v as TX] : [])) : obj(value) ? [value as TX] : [];
}

function get(node: unknown, ...names: string[]): unknown {
  let at: unknown = node;
  for (const name of names) at = obj(at)?.[name];
  return at;
}

function str(node: unknown, ...names: string[]): string | undefined {
  const value = get(node, ...names);
  if (typeof value === "string") return value;
  const text = obj(value)?.["#text"];
  return typeof text === "string" ? text : undefined;
}

/** Amt with its Ccy attribute → signed minor units by the CdtDbtInd beside it. */
function signedAmount(format: TBankFormat, where: string, amt: unknown, indicator: string | undefined, fallbackCurrency: string) {
  const currency = currencyOf(format, `${where}/Amt`, str(amt, "@Ccy") ?? fallbackCurrency);
  const minor = toMinor(format, `${where}/Amt`, str(amt), currency, { decimal: "." });
  if (minor < 0) throw malformed(format, `${where}/Amt`, "a CAMT amount has no sign (CdtDbtInd gives it)");
  if (indicator !== "CRDT" && indicator !== "DBIT")
    throw malformed(format, `${where}/CdtDbtInd`, `"${indicator ?? ""}" is neither CRDT nor DBIT`);
  return { currency, amount_minor: indicator === "DBIT" ? -minor : minor };
}

function camtDay(format: TBankFormat, where: string, node: unknown): string {
  const raw = str(node, "Dt") ?? str(node, "DtTm") ?? "";
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  if (!match) throw malformed(format, where, `"${raw}" is not a date`);
  return dayOf(format, where, Number(match[1]), Number(match[2]), Number(match[3]), raw);
}

function partyName(party: unknown): string {
  return tidy(str(party, "Nm") ?? str(party, "Pty", "Nm"));
}

function accountId(acct: unknown): string {
  return tidy(str(acct, "Id", "IBAN") ?? str(acct, "Id", "Othr", "Id"));
}

/** The counterparty of a transaction: the creditor of money out, the debtor of money in. */
function counterpartyOf(tx: unknown, out: boolean): { name: string; account: string } {
  const parties = get(tx, "RltdPties");
  const side = out ? "Cdtr" : "Dbtr";
  return { name: partyName(get(parties, side)), account: accountId(get(parties, `${side}Acct`)) };
}

function remittance(tx: unknown): string {
  const unstructured = get(tx, "RmtInf", "Ustrd");
  const parts = (Array.isArray(unstructured) ? unstructured : [unstructured]).filter((u): u is string => typeof u === "string");
  return tidy(parts.join(" ") || str(tx, "RmtInf", "Strd", "CdtrRefInf", "Ref") || str(tx, "AddtlTxInf"));
}

export function camtFormatOf(text: string): TBankFormat | null {
  const head = text.slice(0, 4096);
  if (/camt\.052\.001|<(\w+:)?BkToCstmrAcctRpt[\s>]/.test(head)) return "camt052";
  if (/camt\.053\.001|<(\w+:)?BkToCstmrStmt[\s>]/.test(head)) return "camt053";
  return null;
}

export function parseCamt(text: string, format: "camt053" | "camt052"): TBankFile {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw malformed(format, `line ${valid.err.line}, column ${valid.err.col}`, valid.err.msg.replace(/\.$/, ""));
  }
  const document = parser.parse(text) as TX;
  const top = format === "camt053" ? "BkToCstmrStmt" : "BkToCstmrAcctRpt";
  const item = format === "camt053" ? "Stmt" : "Rpt";
  const body = get(document, "Document", top);
  if (!obj(body)) throw malformed(format, "Document", `no ${top} element`);
  const statements: TBankAccountStatement[] = [];
  list(get(body, item)).forEach((stmt, s) => {
    const at = `${item}[${s + 1}]`;
    const account = accountId(get(stmt, "Acct"));
    if (!account) throw malformed(format, `${at}/Acct/Id`, "no IBAN or other account id");
    const accountCurrency = str(stmt, "Acct", "Ccy");
    let currency = accountCurrency ? currencyOf(format, `${at}/Acct/Ccy`, accountCurrency) : "";
    const balances = list(get(stmt, "Bal")).map((bal, b) => {
      const where = `${at}/Bal[${b + 1}]`;
      const code = str(bal, "Tp", "CdOrPrtry", "Cd") ?? str(bal, "Tp", "CdOrPrtry", "Prtry") ?? "";
      const signed = signedAmount(format, where, get(bal, "Amt"), str(bal, "CdtDbtInd"), currency);
      return { code, ...signed, on: camtDay(format, `${where}/Dt`, get(bal, "Dt")) };
    });
    currency ||= balances[0]?.currency ?? "";
    const entries: TBankEntry[] = [];
    list(get(stmt, "Ntry")).forEach((ntry, n) => {
      const where = `${at}/Ntry[${n + 1}]`;
      const status = str(ntry, "Sts") ?? str(ntry, "Sts", "Cd") ?? "BOOK";
      if (status !== "BOOK") return;
      const indicator = str(ntry, "CdtDbtInd");
      const total = signedAmount(format, where, get(ntry, "Amt"), indicator, currency);
      currency ||= total.currency;
      const reversal = ["true", "1"].includes((str(ntry, "RvslInd") ?? "").trim().toLowerCase());
      const occurred_on = camtDay(format, `${where}/BookgDt`, get(ntry, "BookgDt") ?? get(ntry, "ValDt"));
      const bankId = tidy(str(ntry, "AcctSvcrRef")) || tidy(str(ntry, "NtryRef")) || null;
      const additional = get(ntry, "AddtlNtryInf");
      const entryText = tidy(
        (Array.isArray(additional) ? additional : [additional]).filter((a) => typeof a === "string").join(" "),
      );
      const txs = list(get(ntry, "NtryDtls")).flatMap((d) => list(get(d, "TxDtls")));
      const label = (text: string) => (reversal ? `Reversal: ${text}`.trim() : text);
      const withAmounts =
        txs.length > 1 && txs.every((tx) => get(tx, "Amt") !== undefined || get(tx, "AmtDtls", "TxAmt", "Amt") !== undefined);
      if (!withAmounts) {
        const tx = txs[0];
        // A reversal names the parties of the payment it reverses.
        const party = counterpartyOf(tx, total.amount_minor < 0 !== reversal);
        entries.push({
          bank_id: bankId,
          occurred_on,
          amount_minor: total.amount_minor,
          currency: total.currency,
          description: label(remittance(tx) || entryText || party.name),
          counterparty: party.name,
          counterparty_account: party.account || undefined,
          reference: tidy(str(tx, "Refs", "EndToEndId")) || undefined,
          at: where,
        });
        return;
      }
      let sum = 0;
      txs.forEach((tx, t) => {
        const txWhere = `${where}/NtryDtls/TxDtls[${t + 1}]`;
        const amt = get(tx, "Amt") ?? get(tx, "AmtDtls", "TxAmt", "Amt");
        const signed = signedAmount(format, txWhere, amt, str(tx, "CdtDbtInd") ?? indicator, total.currency);
        sum += signed.amount_minor;
        const party = counterpartyOf(tx, signed.amount_minor < 0 !== reversal);
        const txRef =
          tidy(str(tx, "Refs", "AcctSvcrRef")) || tidy(str(tx, "Refs", "TxId")) || tidy(str(tx, "Refs", "EndToEndId"));
        entries.push({
          bank_id: bankId ? `${bankId}/${txRef || t + 1}` : null,
          occurred_on,
          amount_minor: signed.amount_minor,
          currency: signed.currency,
          description: label(remittance(tx) || entryText || party.name),
          counterparty: party.name,
          counterparty_account: party.account || undefined,
          reference: tidy(str(tx, "Refs", "EndToEndId")) || undefined,
          at: txWhere,
        });
      });
      if (sum !== total.amount_minor) {
        throw malformed(
          format,
          `${where}/NtryDtls`,
          `the batch's transactions add up to ${sum}, the entry says ${total.amount_minor} (minor units)`,
        );
      }
    });
    if (!currency) throw malformed(format, `${at}/Acct/Ccy`, "no currency for the account");
    const opening = balances.find((b) => b.code === "OPBD") ?? balances.find((b) => b.code === "PRCD");
    const closing =
      balances.find((b) => b.code === "CLBD") ?? (format === "camt052" ? balances.find((b) => b.code === "ITBD") : undefined);
    statements.push({
      account,
      currency,
      opening: opening && { amount_minor: opening.amount_minor, on: opening.on },
      closing: closing && { amount_minor: closing.amount_minor, on: closing.on },
      entries,
    });
  });
  if (statements.length === 0) throw malformed(format, top, `no ${item} element`);
  return { format, statements };
}
