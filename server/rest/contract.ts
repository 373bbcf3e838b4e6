// The contract version this server speaks, and the client's minimum (Versioning 2–3).
import semver from "semver";
import { AppError } from "../errors/app-error";
import { CONTRACT_VERSION } from "../shared/contract-version";

// Defined below the domains (GET /v1/agents/me names it too); the REST layer's home for it.
export { CONTRACT_VERSION };

/** A client's X-Service-Contract-Min above our version answers 426 (pre-release aware). */
export function assertContractMin(header: string | null): void {
  if (!header) return;
  const wanted = semver.valid(header.trim()) ?? semver.valid(semver.coerce(header.trim()));
  if (!wanted) {
    throw new AppError("validation_error", "X-Service-Contract-Min must be a semantic version.", {
      details: { issues: [{ path: "X-Service-Contract-Min", message: "must be a semantic version, e.g. 1.0.0" }] },
    });
  }
  if (semver.lt(CONTRACT_VERSION, wanted)) {
    throw new AppError("contract_too_old", `This server speaks contract ${CONTRACT_VERSION}; the client needs ${wanted}.`, {
      details: { server_version: CONTRACT_VERSION, required: wanted },
    });
  }
}
