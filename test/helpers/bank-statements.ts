// Writes one ledger as each statement format a bank gives (OFX 1.x, OFX 2.x, CAMT.053, CAMT.052,
// MT940, QIF) and as CSV: the round-trip and property tests of the import formats (issue 35)
// read them back and expect the same events from each.
import { currencyDigits } from "../../server/shared/currencies";

export type TLedgerLine = {
  /** The bank's own transaction id (not written to QIF or CSV, which have none). */
  id: string;
  date: string;
  amount_minor: number;
  description: string;
  counterparty: string;
};

export type TLedger = {
  account: string;
  currency: string;
  opening_minor: number;
  lines: TLedgerLine[];
  /** Defaults to opening + Σ lines (a balance that adds up). */
  closing_minor?: number;
};

/** Minor units as a decimal text of the currency ("−12.34", "1200", "0.500"), `mark` as the decimal point. */
export function decimal(minor: number, currency: string, mark = "."): string {
  const digits = currencyDigits(currency);
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}${mark}${text.slice(-digits)}`;
}

const closingOf = (ledger: TLedger) =>
  ledger.closing_minor ?? ledger.opening_minor + ledger.lines.reduce((s, l) => s + l.amount_minor, 0);
const lastDay = (ledger: TLedger) =>
  ledger.lines
    .map((l) => l.date)
    .sort()
    .at(-1) ?? "2025-01-31";
const firstDay = (ledger: TLedger) => ledger.lines.map((l) => l.date).sort()[0] ?? "2025-01-01";
const compact = (day: string) => day.replaceAll("-", "");
const xml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** OFX 1.x SGML (leaves unclosed) or 2.x XML. */
export function writeOfx(ledgers: TLedger[], version: 1 | 2 = 1): string {
  const leaf = (name: string, value: string) => (version === 1 ? `<${name}>${value}` : `<${name}>${value}</${name}>`);
  const statements = ledgers.map((ledger) =>
    [
      "<STMTTRNRS>",
      leaf("TRNUID", "1"),
      "<STMTRS>",
      leaf("CURDEF", ledger.currency),
      "<BANKACCTFROM>",
      leaf("BANKID", "000000000"),
      leaf("ACCTID", ledger.account),
      leaf("ACCTTYPE", "CHECKING"),
      "</BANKACCTFROM>",
      "<BANKTRANLIST>",
      leaf("DTSTART", compact(firstDay(ledger))),
      leaf("DTEND", compact(lastDay(ledger))),
      ...ledger.lines.flatMap((line) => [
        "<STMTTRN>",
        leaf("TRNTYPE", line.amount_minor < 0 ? "DEBIT" : "CREDIT"),
        leaf("DTPOSTED", `${compact(line.date)}120000`),
        leaf("TRNAMT", decimal(line.amount_minor, ledger.currency)),
        leaf("FITID", line.id),
        leaf("NAME", xml(line.counterparty)),
        leaf("MEMO", xml(line.description)),
        "</STMTTRN>",
      ]),
      "</BANKTRANLIST>",
      "<LEDGERBAL>",
      leaf("BALAMT", decimal(closingOf(ledger), ledger.currency)),
      leaf("DTASOF", compact(lastDay(ledger))),
      "</LEDGERBAL>",
      "</STMTRS>",
      "</STMTTRNRS>",
    ].join("\n"),
  );
  const header =
    version === 1
      ? "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n"
      : '<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n';
  return `${header}<OFX>\n<BANKMSGSRSV1>\n${statements.join("\n")}\n</BANKMSGSRSV1>\n</OFX>\n`;
}

/** CAMT.053 (or .052) of the given message version, one Stmt (Rpt) per ledger. */
export function writeCamt(ledgers: TLedger[], options: { kind?: "053" | "052"; version?: string } = {}): string {
  const kind = options.kind ?? "053";
  const version = options.version ?? "08";
  const [top, item] = kind === "053" ? ["BkToCstmrStmt", "Stmt"] : ["BkToCstmrAcctRpt", "Rpt"];
  const amount = (minor: number, currency: string) =>
    `<Amt Ccy="${currency}">${decimal(Math.abs(minor), currency)}</Amt><CdtDbtInd>${minor < 0 ? "DBIT" : "CRDT"}</CdtDbtInd>`;
  const balance = (code: string, minor: number, currency: string, day: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>${amount(minor, currency)}<Dt><Dt>${day}</Dt></Dt></Bal>`;
  const body = ledgers.map((ledger) =>
    [
      `<${item}><Id>${item}-${ledger.account}</Id>`,
      `<Acct><Id><IBAN>${ledger.account}</IBAN></Id><Ccy>${ledger.currency}</Ccy></Acct>`,
      balance("OPBD", ledger.opening_minor, ledger.currency, firstDay(ledger)),
      balance("CLBD", closingOf(ledger), ledger.currency, lastDay(ledger)),
      ...ledger.lines.map((line) => {
        const side = line.amount_minor < 0 ? "Cdtr" : "Dbtr";
        return (
          `<Ntry>${amount(line.amount_minor, ledger.currency)}<Sts>${version >= "08" ? "<Cd>BOOK</Cd>" : "BOOK"}</Sts>` +
          `<BookgDt><Dt>${line.date}</Dt></BookgDt><ValDt><Dt>${line.date}</Dt></ValDt><AcctSvcrRef>${line.id}</AcctSvcrRef>` +
          `<NtryDtls><TxDtls><RltdPties><${side}>${version >= "08" ? `<Pty><Nm>${xml(line.counterparty)}</Nm></Pty>` : `<Nm>${xml(line.counterparty)}</Nm>`}</${side}></RltdPties>` +
          `<RmtInf><Ustrd>${xml(line.description)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`
        );
      }),
      `</${item}>`,
    ].join("\n"),
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${kind}.001.${version}">\n` +
    `<${top}><GrpHdr><MsgId>M1</MsgId><CreDtTm>2025-01-01T00:00:00</CreDtTm></GrpHdr>\n${body.join("\n")}\n</${top}></Document>\n`
  );
}

const yymmdd = (day: string) => compact(day).slice(2);

/** MT940 with structured :86: (?20… the description in 27-character pieces, ?32/?33 the name). */
export function writeMt940(ledgers: TLedger[]): string {
  const pieces = (text: string, first: number, last: number) => {
    const out: string[] = [];
    for (let i = 0, code = first; i < text.length && code <= last; i += 27, code++) out.push(`?${code}${text.slice(i, i + 27)}`);
    return out;
  };
  const balance = (minor: number, day: string, currency: string) =>
    `${minor < 0 ? "D" : "C"}${yymmdd(day)}${currency}${decimal(Math.abs(minor), currency, ",")}${currencyDigitsComma(currency)}`;
  return ledgers
    .map((ledger) =>
      [
        ":20:STMT",
        `:25:${ledger.account}`,
        ":28C:1/1",
        `:60F:${balance(ledger.opening_minor, firstDay(ledger), ledger.currency)}`,
        ...ledger.lines.flatMap((line) => [
          `:61:${yymmdd(line.date)}${compact(line.date).slice(4)}${line.amount_minor < 0 ? "D" : "C"}${decimal(Math.abs(line.amount_minor), ledger.currency, ",")}${currencyDigitsComma(ledger.currency)}NTRFNONREF//${line.id}`,
          `:86:166?00TRANSFER`,
          ...pieces(line.description, 20, 29),
          ...pieces(line.counterparty, 32, 33),
        ]),
        `:62F:${balance(closingOf(ledger), lastDay(ledger), ledger.currency)}`,
      ].join("\r\n"),
    )
    .join("\r\n-\r\n");
}

/** MT940 amounts always carry a comma: a currency without decimals is written "1200,". */
function currencyDigitsComma(currency: string): string {
  return currencyDigits(currency) === 0 ? "," : "";
}

/** QIF bank section, month-first dates with four-digit years. */
export function writeQif(ledger: TLedger): string {
  const lines = ["!Type:Bank"];
  for (const line of ledger.lines) {
    const [y, m, d] = line.date.split("-");
    lines.push(
      `D${m}/${d}/${y}`,
      `T${decimal(line.amount_minor, ledger.currency)}`,
      `P${line.counterparty}`,
      `M${line.description}`,
      "^",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** CSV with the generic preset's column names. */
export function writeCsv(ledger: TLedger): string {
  return [
    "Date,Amount,Currency,Description,Counterparty",
    ...ledger.lines.map(
      (l) => `${l.date},${decimal(l.amount_minor, ledger.currency)},${ledger.currency},${l.description},${l.counterparty}`,
    ),
  ].join("\n");
}
