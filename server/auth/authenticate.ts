// Bearer authentication: turns the Authorization header into an actor. One place for every
// kind of credential (static owner token now; sessions and agent tokens plug in here).
import type { TDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import type { TAuthenticatedActor, TOwnerActor } from "./actor";
import { safeEqual, tokenKey } from "./tokens";

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

/** The token of an `Authorization: Bearer …` header; a missing or malformed one is 401. */
export function parseBearer(header: string | null): string {
  if (!header) throw new AppError("unauthenticated");
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) throw new AppError("unauthenticated", "Authorization must be 'Bearer <token>'.");
  return match[1];
}

export async function authenticateToken(db: TDb, token: string): Promise<TAuthenticatedActor> {
  const env = getEnv();
  if (env.AUTH_MODE === "static" && env.STATIC_OWNER_TOKEN && safeEqual(token, env.STATIC_OWNER_TOKEN)) {
    return staticOwner(db, env.STATIC_OWNER_EMAIL, token);
  }
  throw new AppError("unauthenticated", "The bearer token is not valid.");
}

const staticOwnerIds = new WeakMap<TDb, Map<string, Promise<string>>>();

/** The static mode's owner, created on first use (a database may be fresh). */
async function staticOwner(db: TDb, email: string, token: string): Promise<TOwnerActor> {
  let byEmail = staticOwnerIds.get(db);
  if (!byEmail) staticOwnerIds.set(db, (byEmail = new Map()));
  let ownerId = byEmail.get(email);
  if (!ownerId) {
    ownerId = db.owner
      .upsert({ where: { email }, create: { email }, update: {}, select: { id: true } })
      .then((owner) => owner.id);
    byEmail.set(email, ownerId);
    ownerId.catch(() => byEmail.delete(email));
  }
  return { type: "owner", ownerId: await ownerId, credential: "static", tokenKey: tokenKey(token) };
}
