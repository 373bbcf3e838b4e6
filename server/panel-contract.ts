// The one server module the panel's components import at runtime (eslint.config.mjs enforces
// it): the constants and pure rules the panel shares with the server, so a form says what the
// server will say without asking it and the two never drift. Everything re-exported here comes
// from a module that imports nothing server-only (no database, environment, log or secret) and
// no zod (a schema parsed in the browser tries `new Function`, which the panel's CSP refuses): it
// ends up in the browser's bundle of every page that imports it. Types may still be imported from anywhere in server/.
export { isValidCidr } from "./auth/ip-allow-list";
export { SCOPES } from "./auth/scopes";
export { FIELDS, requiredFields, SIGN_CONVENTIONS } from "./imports/mapping-fields";
export { alertMessage } from "./ingest/signal-messages";
export { MUTED_CODE_MAX_LENGTH, MUTED_CODE_PATTERN, MUTED_CODES_MAX } from "./notifications/muted-codes";
export { PASSPORT_LIMITS } from "./passports/passport-limits";
export { PLAN_DISPLAY_NAMES, PLAN_LIMIT_KEYS, PLAN_LIMIT_UNITS } from "./plans/plan-limits";
export { PROVIDER_CATALOG, providerInfo } from "./sources/providers";
