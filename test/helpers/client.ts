// The typed client (client/) on the in-process app: its fetch is the test API's REST handler, so
// a scenario written with it is checked by `tsc` against the OpenAPI document and run against
// the real /v1 layer. `answer` turns a client result into the shape expectApiError reads.
import { createFinanceClient, type TFinanceClient } from "../../client";
import { OWNER_TOKEN, type TApiResponse, type TTestApi } from "./api";

/** The client as `token` (default: the static owner of createTestApi) on `api`'s handler. */
export function clientFor(api: Pick<TTestApi, "handler">, token: string = OWNER_TOKEN): TFinanceClient {
  return createFinanceClient({ baseUrl: "http://localhost", token, fetch: (request) => api.handler(request) });
}

/** A client result as a TApiResponse: its status, headers, and body (the data or the error body). */
export function answer<T = any>(result: { data?: unknown; error?: unknown; response: Response }): TApiResponse<T> {
  const body = (result.error ?? result.data) as T;
  return { status: result.response.status, headers: result.response.headers, body, text: JSON.stringify(body) };
}
