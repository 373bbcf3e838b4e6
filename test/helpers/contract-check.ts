// Every answer an API-level test sees is checked against /v1/openapi.json, as a client generated
// from the document would find it: a status the operation documents, the headers it declares
// required (and the declared ones that are present, by their schema), and the body against the
// operation's schema for that status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses). A mismatch
// throws from the call, failing the test, so the document cannot drift from the server again.
// The document is the handler's own (a fixture router's operations included); validators are
// compiled once per document text and process.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { TRestHandler } from "../../server/rest/rest-handler";

type TJson = Record<string, any>;

type TCompiled = {
  doc: TJson;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
};

const byText = new Map<string, TCompiled>();
const byHandler = new WeakMap<TRestHandler, Promise<TCompiled>>();

async function compiledFor(handler: TRestHandler): Promise<TCompiled> {
  let compiled = byHandler.get(handler);
  if (!compiled) {
    compiled = (async () => {
      const response = await handler(new Request("http://localhost/v1/openapi.json"));
      const text = await response.text();
      let entry = byText.get(text);
      if (!entry) {
        const doc = JSON.parse(text) as TJson;
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats(ajv);
        // zod's string .startsWith() appears as a format ajv does not know; the pattern beside it says the same.
        ajv.addFormat("starts_with", true);
        ajv.addSchema(doc, "openapi");
        entry = { doc, ajv, validators: new Map() };
        byText.set(text, entry);
      }
      return entry;
    })();
    byHandler.set(handler, compiled);
  }
  return compiled;
}

const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

function resolve(doc: TJson, node: TJson | undefined): TJson | undefined {
  let current = node;
  for (let i = 0; current?.$ref && i < 5; i++) {
    current = (current.$ref as string)
      .slice(2)
      .split("/")
      .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<TJson | undefined>((at, key) => at?.[key], doc);
  }
  return current;
}

function validatorFor(compiled: TCompiled, ref: string): ValidateFunction {
  let validate = compiled.validators.get(ref);
  if (!validate) {
    validate = compiled.ajv.getSchema(`openapi#/${ref}`);
    if (!validate) throw new Error(`No schema at ${ref}`);
    compiled.validators.set(ref, validate);
  }
  return validate;
}

function headerValue(schema: TJson | undefined, text: string): unknown {
  if (schema?.type === "integer" || schema?.type === "number") return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  return text;
}

/** The problems of one answer against the document, empty when it is exactly as documented. */
export async function contractProblems(
  handler: TRestHandler,
  request: { method: string; url: string },
  response: Response,
): Promise<string[]> {
  const compiled = await compiledFor(handler);
  const { doc } = compiled;
  const url = new URL(request.url);
  const found = handler.routes.match(request.method, url.pathname);
  let route: { method: string; path: string } | undefined = found && "route" in found ? found.route : undefined;
  if (found && "allowed" in found) {
    // A method the REST layer's table lacks but the document may describe (OPTIONS, a CORS preflight).
    const other = handler.routes.match(found.allowed[0]!, url.pathname);
    const path = other && "route" in other ? other.route.path : undefined;
    if (path && doc.paths?.[path]?.[request.method.toLowerCase()]) route = { method: request.method, path };
  }
  const problems: string[] = [];
  let responseObject: TJson | undefined;
  let base: string;
  if (route) {
    const operation = doc.paths?.[route.path]?.[route.method.toLowerCase()];
    if (!operation) return [`${route.method} ${route.path} is served but not in the document`];
    responseObject = operation.responses?.[String(response.status)];
    base = pointer("paths", route.path, route.method.toLowerCase(), "responses", String(response.status));
    if (!responseObject) {
      return [`${route.method} ${route.path} answered ${response.status}, which the document does not list`];
    }
    if (responseObject.$ref) base = (responseObject.$ref as string).slice(2);
    responseObject = resolve(doc, responseObject);
  } else {
    // No operation here (404) or not this method (405): the error responses every operation shares.
    base = pointer("components", "responses", `Error${response.status}`);
    responseObject = doc.components?.responses?.[`Error${response.status}`];
    if (!responseObject) return [`${request.method} ${url.pathname} answered ${response.status}, which no error response lists`];
  }

  for (const [name, declared] of Object.entries<TJson>(responseObject?.headers ?? {})) {
    const header = resolve(doc, declared);
    const value = response.headers.get(name);
    if (value === null) {
      if (header?.required) problems.push(`header ${name} is required but missing`);
      continue;
    }
    if (header?.schema) {
      const ok = compiled.ajv.validate(header.schema, headerValue(header.schema, value));
      if (!ok) problems.push(`header ${name}: ${JSON.stringify(value)} ${compiled.ajv.errorsText()}`);
    }
  }

  const content = (responseObject?.content ?? {}) as Record<string, TJson>;
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const text = await response.clone().text();
  if (Object.keys(content).length === 0) {
    if (text !== "") problems.push(`the document lists no body for ${response.status}, but one was sent`);
  } else if (!(contentType in content)) {
    problems.push(`content type ${contentType || "(none)"} is not one of ${Object.keys(content).join(", ")}`);
  } else if (contentType === "application/json") {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("the body is not JSON");
    }
    if (problems.length === 0) {
      const validate = validatorFor(compiled, `${base}/${pointer("content", "application/json", "schema")}`);
      if (!validate(body)) {
        for (const error of (validate.errors ?? []).slice(0, 8)) {
          problems.push(`body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
        }
      }
    }
  }
  return problems;
}

/** The handler, with every answer checked against its document (a mismatch throws). */
export function contractChecked(handler: TRestHandler): TRestHandler {
  const checked = async (request: Request): Promise<Response> => {
    const copy = { method: request.method, url: request.url };
    const response = await handler(request);
    const path = new URL(copy.url).pathname;
    if (path === "/v1/openapi.json") return response;
    const problems = await contractProblems(handler, copy, response);
    if (problems.length > 0) {
      const body = (await response.clone().text()).slice(0, 600);
      throw new Error(
        `${copy.method} ${path} → ${response.status} disagrees with /v1/openapi.json:\n  ${problems.join("\n  ")}\n  body: ${body}`,
      );
    }
    return response;
  };
  return Object.assign(checked, { routes: handler.routes });
}
