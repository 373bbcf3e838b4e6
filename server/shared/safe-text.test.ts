// findJsonProblem names the first problem's path exactly, whatever the walk keeps on its way.
import { describe, expect, it } from "vitest";
import { findJsonProblem, MAX_JSON_DEPTH } from "./safe-text";

describe("findJsonProblem", () => {
  it("answers null for clean JSON", () => {
    expect(findJsonProblem({ a: ["x", { b: "y" }], c: 1, d: null, e: true })).toBeNull();
  });

  it("names a bad string by its path, array positions included", () => {
    expect(findJsonProblem({ events: [{ a: "ok" }, { payload: { list: ["ok", "bad\u0000"] } }] })).toEqual({
      path: "events.1.payload.list.1",
      code: "unsafe_text",
      message: "must not contain a NUL character (\\u0000)",
    });
    expect(findJsonProblem({ x: "\ud800" }, { root: "(item)" })).toMatchObject({ path: "x", code: "unsafe_text" });
  });

  it("names a bad key by its own (escaped) path", () => {
    expect(findJsonProblem({ a: { "k\u0000": 1 } })).toEqual({
      path: "a.k\\u0000",
      code: "unsafe_text",
      message: "the key must not contain a NUL character (\\u0000)",
    });
  });

  it("a problem at the root is the root's; `path` prefixes the rest", () => {
    expect(findJsonProblem("\u0000", { root: "(item)" })).toMatchObject({ path: "(item)" });
    expect(findJsonProblem({ b: "\u0000" }, { path: ["events", 3] })).toMatchObject({ path: "events.3.b" });
  });

  it("refuses nesting past the limit, naming where it stopped; text is not checked with text: false", () => {
    let deep: unknown = "end";
    for (let i = 0; i < MAX_JSON_DEPTH + 1; i++) deep = [deep];
    const problem = findJsonProblem({ deep });
    expect(problem).toMatchObject({ code: "too_deep", message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
    expect(problem!.path.split(".")).toHaveLength(MAX_JSON_DEPTH);
    expect(findJsonProblem({ a: "\u0000" }, { text: false })).toBeNull();
  });

  it("reports the first problem in key order", () => {
    expect(findJsonProblem({ a: { b: "ok", c: "\u0000" }, d: "\u0000" })).toMatchObject({ path: "a.c" });
  });
});
