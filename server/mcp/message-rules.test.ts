// /mcp's message rules (message-rules.ts): what the SDK would have answered as a JSON-RPC
// internal error (-32603, its validator's raw dump) is refused first, in /v1's terms.
import { describe, expect, it } from "vitest";
import { jsonRpcBodyRefusal } from "./message-rules";

const refuse = async (message: unknown) => {
  const answer = jsonRpcBodyRefusal(Buffer.from(typeof message === "string" ? message : JSON.stringify(message)), "req_test");
  return answer && { status: answer.status, body: JSON.parse(await answer.text()) };
};

describe("/mcp message rules", () => {
  it("lets a well-formed request through", async () => {
    expect(await refuse({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBeNull();
    expect(
      await refuse({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_agent_me", arguments: {} } }),
    ).toBeNull();
    expect(await refuse({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeNull();
  });

  it("answers params that do not fit the method with -32602 and the issues (not -32603)", async () => {
    const bad = await refuse({
      jsonrpc: "2.0",
      id: 9,
      method: "initialize",
      params: { protocolVersion: ["2025-06-18"], capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    expect(bad?.status).toBe(200);
    expect(bad?.body).toMatchObject({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32602, data: { code: "validation_error", request_id: "req_test" } },
    });
    expect(bad?.body.error.data.issues[0].path).toBe("params.protocolVersion");

    const uri = await refuse({ jsonrpc: "2.0", id: "r", method: "resources/read", params: { uri: "" } });
    expect(uri?.body.error).toMatchObject({ code: -32602, data: { issues: [{ path: "params.uri" }] } });
  });

  it("refuses non-JSON (-32700), JSON past 64 levels and batches (-32600) with HTTP 400", async () => {
    expect((await refuse("{nope"))?.body.error.code).toBe(-32700);
    const deep = await refuse(`{"a":${"[".repeat(70)}${"]".repeat(70)}}`);
    expect(deep).toMatchObject({ status: 400, body: { error: { code: -32600, data: { code: "validation_error" } } } });
    const batch = await refuse([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]);
    expect(batch).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
  });
});
