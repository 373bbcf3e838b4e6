// Scope names an agent's grant can carry (contract: Authentication 4). New scopes are additive.
export const SCOPES = ["finances:observe", "forecast:observe", "ads"] as const;
export type TScope = (typeof SCOPES)[number];
