// Connections (issue 14): the connect forms have no default business (sending without one
// names the field), and a connection is disconnected from its row in two clicks, after which
// its signed webhook is refused with 401.
import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_OWNER_TOKEN, seriousViolations, signIn } from "./support";

const RUN = (process.env.E2E_RUN_ID ?? String(Date.now())).replace(/[^0-9a-z]/gi, "").slice(-8);
const SHOTS = "test-results/screenshots";
const bearer = () => ({ Authorization: `Bearer ${E2E_OWNER_TOKEN}`, "Idempotency-Key": randomUUID() });

async function post<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { headers: bearer(), data });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: T }).data;
}

function signed(secret: string, body: string) {
  return {
    headers: {
      "Content-Type": "application/json",
      "X-Service-Signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
    },
    data: body,
  };
}

test("a webhook connection needs an explicit business and can be disconnected", async ({ page, request }) => {
  const business = await post<{ id: string }>(request, "/v1/businesses", { name: `Hooks Co ${RUN}`, currency: "EUR" });
  const name = `Old relay ${RUN}`;
  const hook = await post<{ integration_id: string; secret: string; webhook_url: string }>(
    request,
    "/v1/integrations/generic/connect",
    { business_id: business.id, name },
  );

  await signIn(page);
  await page.goto("/integrations");
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Connect generic webhook" });
  await expect(form.getByLabel("Business").locator("option", { hasText: `Hooks Co ${RUN}` })).toBeAttached();
  await expect(form.getByLabel("Business")).toHaveValue("");
  await form.getByRole("button", { name: "Create webhook" }).click();
  await expect(form.getByText("Choose the business this connection's events belong to.")).toBeVisible();
  await expect(form.getByLabel("Business")).toHaveAttribute("aria-invalid", "true");

  const connections = page.getByRole("region", { name: "Connections" });
  const row = connections.getByRole("row", { name: new RegExp(name) });
  await row.getByRole("button", { name: `Disconnect ${name}` }).click();
  await row.getByRole("button", { name: `Confirm disconnect ${name}` }).click();
  await expect(connections.getByRole("status")).toContainText(`${name} was disconnected`);
  await expect(row).toContainText("disconnected");
  await expect(row.getByRole("button", { name: `Disconnect ${name}` })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/connections-disconnected.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  const body = JSON.stringify({
    events: [
      {
        external_id: `late-${RUN}`,
        type: "revenue",
        state: "actual",
        amount_minor: 100,
        currency: "EUR",
        occurred_on: "2026-11-02",
      },
    ],
  });
  const refused = await request.post(hook.webhook_url, signed(hook.secret, body));
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/disconnected/);
});
