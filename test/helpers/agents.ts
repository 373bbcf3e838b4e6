// Agents for tests, created through the real API by the owner.
import type { TTestApi } from "./api";

export type TTestGrant = {
  scope: string;
  resource: string;
  level: "recommend" | "execute";
  daily_limit_minor?: number;
  monthly_limit_minor?: number;
  currency?: string;
  over_limit?: "approval" | "deny";
};

export async function createAgent(
  api: TTestApi,
  body: { name?: string; grants?: TTestGrant[]; allowed_ip_ranges?: string[]; token_expires_at?: string } = {},
  ownerToken?: string,
): Promise<{ id: string; token: string }> {
  const response = await api.call("POST", "/v1/agents", { body: { name: "Test agent", ...body }, token: ownerToken });
  if (response.status !== 201) throw new Error(`creating an agent answered ${response.status}: ${response.text}`);
  return { id: response.body.data.id, token: response.body.data.token };
}
