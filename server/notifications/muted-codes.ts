// The rules of a muted code, in a module without zod: the panel's form checks an entry with
// them too, and zod in a browser bundle probes eval, which the panel's CSP reports.

/** A muted code: an exact code, or a prefix ending in * (integration.*). */
export const MUTED_CODE_PATTERN = /^[A-Za-z0-9_.:-]+\*?$/;
export const MUTED_CODE_MAX_LENGTH = 128;
/** At most this many muted codes. */
export const MUTED_CODES_MAX = 100;
