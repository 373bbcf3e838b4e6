// The multipart reader (multipart-body.ts) against what real clients send: the web FormData
// encoder (undici, as browsers and Node's fetch), curl's, a preamble and epilogue, quoted
// names, a file holding CRLF and boundary-like text; and what it refuses.
import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { multipartBoundary, MULTIPART_MAX_PARTS, parseMultipart } from "./multipart-body";

async function encoded(form: FormData): Promise<{ body: Buffer; type: string }> {
  const request = new Request("http://x/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! };
}

describe("parseMultipart", () => {
  it("reads fields and a file as FormData encodes them, the file's bytes exactly (a view, not a copy)", async () => {
    const file = "Date,Amount\r\n2026-01-02,-1.00\r\n--not-the-boundary\r\n\u00e9\u20ac";
    const form = new FormData();
    form.set("business_id", "b-1");
    form.set("mapping", '{"columns":{"date":"Datum"}}');
    form.set("file", new Blob([file], { type: "text/csv" }), "bank export.csv");
    const { body, type } = await encoded(form);
    const parts = parseMultipart(body, type);
    expect(parts.map((p) => [p.name, p.filename])).toEqual([
      ["business_id", null],
      ["mapping", null],
      ["file", "bank export.csv"],
    ]);
    expect(parts[1]!.data.toString("utf8")).toBe('{"columns":{"date":"Datum"}}');
    expect(parts[2]!.data.toString("utf8")).toBe(file);
    expect(parts[2]!.contentType).toBe("text/csv");
    expect(parts[2]!.data.buffer).toBe(body.buffer);
  });

  it("reads curl's encoding, with a preamble, an epilogue and a quoted boundary", () => {
    const body = Buffer.from(
      "preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=business_id\r\n\r\nb-2\r\n" +
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n' +
        "--XyZ--\r\nepilogue",
    );
    const parts = parseMultipart(body, 'multipart/form-data; boundary="XyZ"');
    expect(parts.map((p) => [p.name, p.filename, p.data.toString()])).toEqual([
      ["business_id", null, "b-2"],
      ["file", "s.csv", "a,b\n1,2\n"],
    ]);
  });

  it("refuses what is not a form: no boundary, no close delimiter, a part without a name, too many parts", () => {
    const refuse = (body: string, type = "multipart/form-data; boundary=b") => {
      try {
        parseMultipart(Buffer.from(body), type);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        return (error as AppError).code;
      }
      return "accepted";
    };
    expect(multipartBoundary("text/csv")).toBeNull();
    expect(refuse("--b\r\n", "multipart/form-data")).toBe("validation_error");
    expect(refuse("--b\r\nContent-Disposition: form-data; name=x\r\n\r\nvalue")).toBe("validation_error");
    expect(refuse("--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--")).toBe("validation_error");
    expect(refuse("no boundary here")).toBe("validation_error");
    const many = Array.from(
      { length: MULTIPART_MAX_PARTS + 1 },
      (_, i) => `--b\r\nContent-Disposition: form-data; name=f${i}\r\n\r\nv\r\n`,
    );
    expect(refuse(`${many.join("")}--b--`)).toBe("validation_error");
    expect(refuse("--b\r\nContent-Disposition: form-data; name=x\r\n\r\nv\r\n--b--")).toBe("accepted");
  });
});
