// The JSON Schemas tools/list shows (pinned-wave3 §2.3): valid JSON Schema 2020-12 in strict mode,
// no OpenAPI-only keyword. The input schema is the operation's own zod input (what the REST layer
// validates); the output schema is what the operation answers as the OpenAPI document states it
// (every success status's body, and the contract's error body a refused call carries as its
// structured content), so structuredContent is checked against the same schemas as every /v1
// answer of the integration tests (test/helpers/contract-check.ts).
import { z } from "zod";
import type { TMcpCaller, TMcpTool } from "./tools";

export type TJsonSchema = Record<string, unknown>;

/** Keys of a schema object whose values are maps of names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
/** Keys whose values are schemas or lists of schemas. */
const SCHEMA_KEYS = new Set([
  "items",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
]);

/**
 * A schema in strict 2020-12 form: OpenAPI's `example` becomes `examples`, extensions (`x-…`),
 * `discriminator`, `xml`, `externalDocs` and zod's `id` are dropped, `$ref`s into the document's
 * components point at `$defs`, and no `$schema` (MCP's default dialect is 2020-12).
 */
export function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: TJsonSchema = {};
  for (const [key, value] of Object.entries(schema as TJsonSchema)) {
    if (key.startsWith("x-") || ["discriminator", "xml", "externalDocs", "id", "$schema"].includes(key)) continue;
    if (key === "example") {
      if (!("examples" in (schema as TJsonSchema))) out.examples = [value];
      continue;
    }
    if (key === "$ref" && typeof value === "string") {
      out.$ref = value.replace("#/components/schemas/", "#/$defs/");
      continue;
    }
    if (SCHEMA_MAPS.has(key) && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value as TJsonSchema).map(([name, item]) => [name, strictSchema(item)]));
      continue;
    }
    out[key] = SCHEMA_KEYS.has(key) ? strictSchema(value) : value;
  }
  return out;
}

/** `The business's id (…)` for the `{id}` after `/businesses/` in the tool's path. */
function pathParameterDescription(tool: TMcpTool, name: string): string {
  const segments = tool.path.split("/");
  const collection = segments[segments.indexOf(`{${name}}`) - 1] ?? "record";
  const singular = collection.endsWith("sses")
    ? collection.slice(0, -2)
    : collection.endsWith("ies")
      ? `${collection.slice(0, -3)}y`
      : collection.replace(/s$/, "");
  return `The ${singular.replaceAll("-", " ")}'s id (a UUID), as in ${tool.method} ${tool.path}.`;
}

/** The tool's input schema for this caller: `reason` is required of an agent on every write that takes one. */
export function toolInputSchema(tool: TMcpTool, caller: TMcpCaller): TJsonSchema {
  const schema = strictSchema(
    z.toJSONSchema(tool.listedInput, { target: "draft-2020-12", io: "input", unrepresentable: "any" }),
  ) as TJsonSchema;
  const properties = (schema.properties ?? {}) as TJsonSchema;
  // A path parameter described where the zod schema leaves it bare (a shared id schema).
  for (const name of tool.pathParams) {
    const property = properties[name] as TJsonSchema | undefined;
    if (property && typeof property.description !== "string") property.description = pathParameterDescription(tool, name);
  }
  if (caller.type === "agent" && tool.method !== "GET" && "reason" in properties) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    required.add("reason");
    schema.required = [...required];
  }
  return schema;
}

type TOpenApiDocument = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown>; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
};

/** The names of the component schemas `value` refers to, with theirs (the closure). */
function referencedSchemas(value: unknown, components: Record<string, unknown>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencedSchemas(item, components, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string" && item.startsWith("#/components/schemas/")) {
        const name = item.slice("#/components/schemas/".length);
        if (!found.has(name)) {
          found.add(name);
          referencedSchemas(components[name], components, found);
        }
      } else referencedSchemas(item, components, found);
    }
  }
  return found;
}

/**
 * The tool's output schema: an object that is one of the operation's documented JSON answers
 * (each success status's envelope, e.g. 201 created or 202 held for approval) or the contract's
 * error body, with the component schemas they use as `$defs`.
 */
export function toolOutputSchema(tool: TMcpTool, document: TOpenApiDocument): TJsonSchema {
  const operation = document.paths[tool.path]?.[tool.method.toLowerCase()];
  if (!operation) throw new Error(`${tool.method} ${tool.path} is not in the OpenAPI document`);
  const variants: unknown[] = [];
  for (const [status, response] of Object.entries(operation.responses)) {
    if (Number(status) >= 400) continue;
    const schema = response.content?.["application/json"]?.schema;
    if (schema !== undefined) variants.push(schema);
  }
  variants.push({ $ref: "#/components/schemas/Error" });
  const defs = referencedSchemas(variants, document.components.schemas);
  const schema: TJsonSchema = {
    type: "object",
    description:
      "The operation's answer as /v1 sends it: on success its envelope (data, request_id, and fx and coverage on " +
      "aggregates); on a refusal (isError) the contract's error body { error: { code, message, details, request_id } }.",
    anyOf: variants,
    $defs: Object.fromEntries([...defs].sort().map((name) => [name, document.components.schemas[name]])),
  };
  return strictSchema(schema) as TJsonSchema;
}

export type { TOpenApiDocument };
