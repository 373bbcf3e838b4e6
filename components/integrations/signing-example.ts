// The two signing examples shown with a new generic webhook: a Node script and a shell one
// (curl + openssl). Both sign the exact bytes they send: X-Service-Signature is
// "sha256=" + the hex HMAC-SHA256 of the raw body with the secret, X-Service-Timestamp the
// current unix time in seconds (the receiver accepts 5 minutes of drift).
//
// The secret is read from the environment (WEBHOOK_SECRET) instead of being pasted into the
// examples: it then stays out of shell history and of any file the example is saved to.

export type TSigningExample = {
  webhookUrl: string;
  integrationId: string;
  currency: string;
  /** YYYY-MM-DD for the sample event. */
  today: string;
};

function sampleEvent(example: TSigningExample) {
  return {
    integration_id: example.integrationId,
    external_id: "invoice-1001",
    type: "revenue",
    state: "actual",
    amount_minor: 4900,
    currency: example.currency,
    occurred_on: example.today,
    source_type: "IMPORT",
  };
}

/** The sample event as a JavaScript object literal, indented for its place in the Node example. */
function eventLiteral(example: TSigningExample, indent: string): string {
  const lines = Object.entries(sampleEvent(example)).map(([key, value]) => `${indent}  ${key}: ${JSON.stringify(value)},`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

export function nodeExample(example: TSigningExample): string {
  const event = eventLiteral(example, "    ");
  return `// Node 18+, saved as send.mjs: WEBHOOK_SECRET=… node send.mjs
import { createHmac } from "node:crypto";

const url = ${JSON.stringify(example.webhookUrl)};
const body = JSON.stringify({
  events: [
    ${event},
  ],
});
const signature = createHmac("sha256", process.env.WEBHOOK_SECRET).update(body).digest("hex");

const response = await fetch(url, {
  method: "POST",
  headers: {
    "Content-Type": "application/json",
    "X-Service-Signature": \`sha256=\${signature}\`,
    "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
  },
  body, // exactly the bytes that were signed
});
console.log(response.status, await response.json());
`;
}

export function curlExample(example: TSigningExample): string {
  const body = JSON.stringify({ events: [sampleEvent(example)] });
  return `# export WEBHOOK_SECRET=… first
BODY='${body}'
SIGNATURE=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" -r | cut -d' ' -f1)

curl -sS -X POST '${example.webhookUrl}' \\
  -H 'Content-Type: application/json' \\
  -H "X-Service-Signature: sha256=$SIGNATURE" \\
  -H "X-Service-Timestamp: $(date +%s)" \\
  --data-binary "$BODY"
`;
}
