// Who is calling. Every request resolves to exactly one actor; every query of a domain
// service is scoped to `actor.ownerId`.
import type { TGrant } from "./grants";

export type TOwnerActor = {
  type: "owner";
  ownerId: string;
  /** How the owner proved who they are. */
  credential: "static" | "session";
  sessionId?: string;
  /** Stable, non-secret key of the presented token (rate limits are per token). */
  tokenKey: string;
};

export type TAgentActor = {
  type: "agent";
  ownerId: string;
  agentId: string;
  tokenKey: string;
  /** The agent's grants, loaded with its token (one query per request). */
  grants: TGrant[];
};

/** A signed webhook's integration (set by the signature check, never by a bearer). */
export type TIntegrationActor = { type: "integration"; ownerId: string; integrationId: string };

export type TPublicActor = { type: "public" };

export type TActor = TOwnerActor | TAgentActor | TIntegrationActor | TPublicActor;
export type TAuthenticatedActor = TOwnerActor | TAgentActor;

export const PUBLIC_ACTOR: TPublicActor = { type: "public" };

/** The principal idempotency keys are scoped to: one owner (any session) or one agent. */
export function principalOf(actor: TActor): string {
  switch (actor.type) {
    case "owner":
      return `owner:${actor.ownerId}`;
    case "agent":
      return `agent:${actor.agentId}`;
    case "integration":
      return `integration:${actor.integrationId}`;
    case "public":
      return "public";
  }
}

/** The `actor` field of Me and of audit entries. */
export function actorRef(actor: TActor): { type: TActor["type"]; id: string | null } {
  switch (actor.type) {
    case "owner":
      return { type: "owner", id: actor.ownerId };
    case "agent":
      return { type: "agent", id: actor.agentId };
    case "integration":
      return { type: "integration", id: actor.integrationId };
    case "public":
      return { type: "public", id: null };
  }
}
