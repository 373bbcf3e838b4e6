// The contract version this server speaks (Versioning 2): sent as X-Service-Contract, the
// OpenAPI document's info.version, and what GET /v1/agents/me tells its caller. Here, below
// every domain, so a domain may name it without importing the REST layer.
export const CONTRACT_VERSION = "1.0.0-rc.9";
