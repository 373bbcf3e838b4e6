// Field shapes every provider payload shares.
import { z } from "zod";

/** A platform's id of an object (charge, subscription, event, account). */
export const ZPlatformId = z.string().min(1).max(200);

/** An id that becomes part of an external_id key (`…:<id>:…`), so it holds no ':' or spaces. */
export const ZKeyPartId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^:\s]+$/, { message: "must not contain ':' or spaces" });

/** A metric count (impressions, clicks). */
export const ZCount = z.number().int().nonnegative();
