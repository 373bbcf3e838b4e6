// The input the REST layer hands a procedure, as clients have always sent it (trpc-to-openapi
// 3.3.0's adapter built it this way before the layer did): a change here changes the API.
import { describe, expect, it } from "vitest";
import { procedureInput } from "./procedure-call";

const query = (text: string) => new URLSearchParams(text);

describe("procedureInput", () => {
  it("takes a query parameter's text as it is (the schema converts it), an empty value too", () => {
    expect(procedureInput("GET", {}, query("limit=5&cursor=&personal=false"), undefined)).toEqual({
      limit: "5",
      cursor: "",
      personal: "false",
    });
  });

  it("turns a repeated name into the list of its values, in order", () => {
    expect(procedureInput("GET", {}, query("limit=5&status=a&limit=6&limit="), undefined)).toEqual({
      limit: ["5", "6", ""],
      status: "a",
    });
  });

  it("lets path parameters win over a query parameter or a body field of the same name", () => {
    expect(procedureInput("GET", { id: "path" }, query("id=query&limit=1"), undefined)).toEqual({ id: "path", limit: "1" });
    expect(procedureInput("PATCH", { id: "path" }, query("id=query"), { id: "body", name: "x" })).toEqual({
      id: "path",
      name: "x",
    });
  });

  it("reads a write's input from the JSON body only, never from the query, and keeps its types", () => {
    const body = { amount_minor: "100", nested: { n: 1 }, list: [1, "2"] };
    const input = procedureInput("POST", {}, query("amount_minor=7&extra=1"), body);
    expect(input).toEqual(body);
    expect(input).not.toBe(body); // a copy: the body stays as the idempotency hash saw it
    expect(procedureInput("POST", { id: "p" }, query(""), undefined)).toEqual({ id: "p" });
  });

  it("reads a DELETE's input from the query, as GET", () => {
    expect(procedureInput("DELETE", { id: "p" }, query("force=true"), {})).toEqual({ id: "p", force: "true" });
  });

  it("ignores ?__proto__ (once or repeated) and keeps ?constructor as a plain unknown field", () => {
    for (const text of ["__proto__=1", "__proto__=1&__proto__=2", "__proto__[x]=1"]) {
      const input = procedureInput("GET", {}, query(`${text}&limit=2`), undefined);
      expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
      expect(Object.hasOwn(input, "__proto__")).toBe(false);
      expect(input.limit).toBe("2");
    }
    const input = procedureInput("GET", {}, query("constructor=1&toString=2&hasOwnProperty=3"), undefined);
    expect(input).toEqual({ constructor: "1", toString: "2", hasOwnProperty: "3" });
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
  });
});
