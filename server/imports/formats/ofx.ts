// OFX 1.x (SGML: leaf elements without closing tags, a colon-separated header) and OFX 2.x /
// QFX (XML with an <?OFX …?> processing instruction), read by one tolerant tokenizer: a leaf is
// a tag followed by text (closed by the next tag, or its own closing tag); an aggregate is closed
// by its closing tag, which also closes any leaves left open inside it. Every bank statement
// (STMTRS) and card statement (CCSTMTRS) of the file is one account statement.
import {
  currencyOf,
  dayOf,
  malformed,
  tidy,
  toMinor,
  type TBankAccountStatement,
  type TBankEntry,
  type TBankFile,
} from "./bank-statement";

type TNode = { name: string; line: number; text?: string; children: TNode[] };

/** Leaves that banks' SGML files leave empty; any other element without text is an (empty) aggregate. */
const EMPTY_LEAVES = new Set([
  "MEMO",
  "NAME",
  "CHECKNUM",
  "REFNUM",
  "SIC",
  "PAYEEID",
  "SRVRTID",
  "EXTDNAME",
  "CORRECTFITID",
  "CORRECTACTION",
]);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The element tree under a synthetic root; 400 naming the line of an unmatched closing tag or the unclosed element. */
export function readOfxTree(text: string): TNode {
  const start = text.search(/<OFX>/i);
  if (start < 0) throw malformed("ofx", "line 1", "no <OFX> element");
  let line = 1;
  for (let i = 0; i < start; i++) if (text.charCodeAt(i) === 10) line++;
  const root: TNode = { name: "#root", line: 0, children: [] };
  const stack: TNode[] = [root];
  const tag = /<(\/?)([A-Za-z0-9_.]+)[^>]*>|<\?[^>]*\?>|<!--[\s\S]*?-->/g;
  tag.lastIndex = start;
  let position = start;
  let open: TNode | undefined; // the last opened element, whose text is still being read
  let match: RegExpExecArray | null;
  while ((match = tag.exec(text))) {
    const between = text.slice(position, match.index);
    for (let i = 0; i < between.length; i++) if (between.charCodeAt(i) === 10) line++;
    const value = between.trim();
    if (value !== "") {
      if (!open) throw malformed("ofx", `line ${line}`, `text "${value.slice(0, 40)}" outside an element`);
      open.text = decodeEntities(value);
      // A leaf: it holds text, so it is closed (SGML leaves have no closing tag).
      if (stack[stack.length - 1] === open) stack.pop();
    }
    // An SGML leaf left empty ("<MEMO>" then the next tag) closes too: it never holds elements.
    if (open && value === "" && EMPTY_LEAVES.has(open.name) && stack[stack.length - 1] === open) stack.pop();
    open = undefined;
    const [whole, slash, rawName] = match;
    position = match.index + whole.length;
    if (!rawName) continue; // a processing instruction or comment
    const name = rawName.toUpperCase();
    if (slash) {
      let at = stack.length - 1;
      while (at > 0 && stack[at]!.name !== name) at--;
      if (at === 0) {
        // The closing tag of a leaf already closed by its text (OFX 2.x, or SGML files that close leaves).
        const parent = stack[stack.length - 1]!;
        const last = parent.children[parent.children.length - 1];
        if (last && last.name === name && last.text !== undefined) continue;
        throw malformed("ofx", `line ${line}`, `</${name}> closes no open element`);
      }
      stack.length = at;
    } else {
      const node: TNode = { name, line, children: [] };
      stack[stack.length - 1]!.children.push(node);
      stack.push(node);
      open = node;
    }
    for (let i = 0; i < whole.length; i++) if (whole.charCodeAt(i) === 10) line++;
  }
  const rest = text.slice(position).trim();
  if (rest !== "" && open) {
    open.text = decodeEntities(rest);
    if (stack[stack.length - 1] === open) stack.pop();
  }
  // Aggregates still open at the end: the file was cut (leaves without text are empty aggregates).
  for (let at = stack.length - 1; at > 0; at--) {
    const node = stack[at]!;
    if (node.children.length > 0 || node.name === "OFX" || /^(STMTRS|CCSTMTRS|STMTTRN|BANKTRANLIST)$/.test(node.name)) {
      throw malformed("ofx", `<${node.name}> (line ${node.line})`, "the element is never closed (the file is truncated)");
    }
  }
  return root;
}

function child(node: TNode, name: string): TNode | undefined {
  return node.children.find((c) => c.name === name);
}

function path(node: TNode, ...names: string[]): TNode | undefined {
  let at: TNode | undefined = node;
  for (const name of names) at = at && child(at, name);
  return at;
}

function textOf(node: TNode, ...names: string[]): string | undefined {
  return path(node, ...names)?.text;
}

function findAll(node: TNode, names: ReadonlySet<string>, into: TNode[] = []): TNode[] {
  for (const c of node.children) {
    if (names.has(c.name)) into.push(c);
    else findAll(c, names, into);
  }
  return into;
}

/** YYYYMMDD[HHMMSS[.XXX]][[-5:EST]] → its day as written (the bank's booking day). */
function ofxDay(node: TNode | undefined, where: string): string {
  const raw = node?.text ?? "";
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(raw.trim());
  if (!match) throw malformed("ofx", where, `"${raw}" is not an OFX date`);
  return dayOf("ofx", where, Number(match[1]), Number(match[2]), Number(match[3]), raw);
}

export function parseOfx(text: string): TBankFile {
  const root = readOfxTree(text);
  const ofx = child(root, "OFX");
  if (!ofx) throw malformed("ofx", "line 1", "no <OFX> element");
  const statements: TBankAccountStatement[] = [];
  for (const stmt of findAll(ofx, new Set(["STMTRS", "CCSTMTRS"]))) {
    const at = (node: TNode | undefined, name: string) => `<${name}> (line ${node?.line ?? stmt.line})`;
    const curdef = path(stmt, "CURDEF");
    const currency = currencyOf("ofx", at(curdef, "CURDEF"), curdef?.text);
    const from = child(stmt, "BANKACCTFROM") ?? child(stmt, "CCACCTFROM");
    const account = tidy(from && textOf(from, "ACCTID"));
    if (!account) throw malformed("ofx", at(stmt, stmt.name), "no ACCTID for the account");
    const entries: TBankEntry[] = [];
    for (const trn of findAll(child(stmt, "BANKTRANLIST") ?? { name: "", line: 0, children: [] }, new Set(["STMTTRN"]))) {
      const where = `<STMTTRN> (line ${trn.line})`;
      // A line paid in another currency (CURRENCY, ORIGCURRENCY) states its rate; its TRNAMT is still in CURDEF.
      const amount = path(trn, "TRNAMT");
      if (!amount) throw malformed("ofx", where, "no TRNAMT");
      const payee = textOf(trn, "NAME") ?? textOf(trn, "PAYEE", "NAME");
      const memo = textOf(trn, "MEMO");
      const fitid = tidy(textOf(trn, "FITID"));
      entries.push({
        bank_id: fitid || null,
        occurred_on: ofxDay(child(trn, "DTPOSTED"), `<DTPOSTED> (line ${child(trn, "DTPOSTED")?.line ?? trn.line})`),
        amount_minor: toMinor("ofx", `<TRNAMT> (line ${amount.line})`, amount.text, currency),
        currency,
        description: tidy(memo) || tidy(payee),
        counterparty: tidy(payee),
        counterparty_account: tidy(textOf(trn, "BANKACCTTO", "ACCTID")) || undefined,
        reference: tidy(textOf(trn, "CHECKNUM") ?? textOf(trn, "REFNUM")) || undefined,
        at: where,
      });
    }
    const ledger = child(stmt, "LEDGERBAL");
    const closing = ledger
      ? {
          amount_minor: toMinor("ofx", at(path(ledger, "BALAMT"), "BALAMT"), textOf(ledger, "BALAMT"), currency),
          on: ofxDay(child(ledger, "DTASOF"), at(child(ledger, "DTASOF"), "DTASOF")),
        }
      : undefined;
    statements.push({ account, currency, closing, entries });
  }
  if (statements.length === 0) throw malformed("ofx", "<OFX>", "no bank or card statement (STMTRS, CCSTMTRS)");
  return { format: "ofx", statements };
}
