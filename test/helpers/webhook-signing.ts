// Tests only: signs deliveries the way each platform does, with node's HMAC directly (not the
// receivers' own helpers), so a test proves the documented scheme rather than the code.
import { createHmac } from "node:crypto";

const hmac = (secret: string, data: string) => createHmac("sha256", secret).update(data, "utf8");

export const nowSeconds = (now = new Date()) => Math.floor(now.getTime() / 1000);

/** X-Service-Signature + X-Service-Timestamp (generic and the search_ads relay). */
export function serviceHeaders(secret: string, body: string, timestamp = nowSeconds()): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-service-signature": `sha256=${hmac(secret, body).digest("hex")}`,
    "x-service-timestamp": String(timestamp),
  };
}

export function paymentsAHeaders(secret: string, body: string, timestamp = nowSeconds()): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-paymentsa-signature": `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`).digest("hex")}`,
  };
}

export function socialAdsHeaders(secret: string, body: string): Record<string, string> {
  return { "content-type": "application/json", "x-hub-signature-256": `sha256=${hmac(secret, body).digest("hex")}` };
}

export function billingAHeaders(secret: string, body: string, timestamp = nowSeconds()): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-billinga-signature": `ts=${timestamp};h1=${hmac(secret, `${timestamp}:${body}`).digest("hex")}`,
  };
}

export function billingBHeaders(secret: string, body: string, timestamp = nowSeconds()): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-billingb-timestamp": String(timestamp),
    "x-billingb-signature": `v1=${hmac(secret, `${timestamp}.${body}`).digest("base64")}`,
  };
}
