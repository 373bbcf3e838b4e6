// multipart/form-data (RFC 7578) read out of a body the REST layer already holds in memory: each
// part is a view into that buffer, never a copy. A 10 MB statement upload used to be copied
// three times on the request thread (the web FormData parser, its File, the File's
// arrayBuffer()); here finding the parts is a few native Buffer.indexOf scans.
// Streaming parsers (busboy and kin) solve another problem: a body not yet read. The upload's
// body is read whole, under the route's cap, before the Idempotency-Key's fingerprint is taken.
import { AppError } from "../errors/app-error";

export type TMultipartPart = {
  name: string;
  /** Null for a plain field; a file part carries its filename ("" when the client sent an empty one). */
  filename: string | null;
  contentType: string | null;
  /** A view into the body. */
  data: Buffer;
};

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");
/** A form has a handful of fields; a body of thousands of parts is refused, not walked. */
export const MULTIPART_MAX_PARTS = 100;

function invalid(message: string): AppError {
  return new AppError("validation_error", `The body is not valid multipart/form-data: ${message}.`, {
    details: { issues: [{ path: "(body)", code: "invalid_multipart", message }] },
  });
}

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

/** A parameter of a Content-Disposition header (`name="…"`), with `\"` and `\\` unescaped. */
function dispositionParam(header: string, param: string): string | null {
  const match = new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(header);
  if (match) return match[1]!.replace(/\\(.)/g, "$1");
  const bare = new RegExp(`;\\s*${param}=([^\\s;"]+)`, "i").exec(header);
  return bare ? bare[1]! : null;
}

/** The parts of a multipart/form-data body, in order (400 validation_error when malformed). */
export function parseMultipart(body: Buffer, contentType: string): TMultipartPart[] {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw invalid("the Content-Type names no boundary");
  const delimiter = Buffer.from(`--${boundary}`);
  const between = Buffer.from(`\r\n--${boundary}`);

  // The first delimiter may follow a preamble; every later one follows a line break.
  let at = body.indexOf(delimiter);
  if (at !== 0 && at !== -1) {
    at = body.indexOf(between);
    if (at !== -1) at += CRLF.length;
  }
  if (at === -1) throw invalid("no part starts with the boundary");
  const parts: TMultipartPart[] = [];
  for (;;) {
    let next = at + delimiter.length;
    if (body[next] === 0x2d && body[next + 1] === 0x2d) return parts; // "--": the close delimiter
    // Transport padding, then the line break that ends the delimiter line.
    while (body[next] === 0x20 || body[next] === 0x09) next++;
    if (body.compare(CRLF, 0, 2, next, next + 2) !== 0) throw invalid("a boundary line does not end with CRLF");
    const headersStart = next + CRLF.length;
    const headersEnd = body.indexOf(HEADERS_END, headersStart);
    if (headersEnd === -1) throw invalid("a part's headers never end");
    const end = body.indexOf(between, headersEnd);
    if (end === -1) throw invalid("the body ends before its close delimiter");
    if (parts.length === MULTIPART_MAX_PARTS) throw invalid(`more than ${MULTIPART_MAX_PARTS} parts`);

    const headers = body.toString("utf8", headersStart, headersEnd).split("\r\n");
    const disposition = headers.find((line) => /^content-disposition\s*:/i.test(line));
    if (!disposition || !/:\s*form-data\s*(;|$)/i.test(disposition)) throw invalid("a part is not form-data");
    const name = dispositionParam(disposition, "name");
    if (name === null) throw invalid("a part has no name");
    const type = headers.find((line) => /^content-type\s*:/i.test(line));
    parts.push({
      name,
      filename: dispositionParam(disposition, "filename"),
      contentType: type ? type.slice(type.indexOf(":") + 1).trim() : null,
      data: body.subarray(headersEnd + HEADERS_END.length, end),
    });
    at = end + CRLF.length;
  }
}
