// Types of scripts/serve.mjs for the TypeScript tests that exercise it.
import type { IncomingMessage, ServerResponse } from "node:http";

export declare const SOCKET_ADDRESS_HEADER: string;
export declare function stampSocketAddress(req: IncomingMessage): void;
export declare const NODE_DISPATCH_KEY: symbol;
export declare function dispatchDirectly(req: IncomingMessage, res: ServerResponse, options?: { dev?: boolean }): boolean;
export declare const DRAIN_MAX_BYTES: number;
export declare const DRAIN_MAX_MS: number;
export declare function settleUnreadBody(req: IncomingMessage, res: ServerResponse): void;
export declare const FLEET_HOOKS_KEY: symbol;
export declare const SHUTDOWN_HOOKS_KEY: symbol;
export declare const LIVENESS_PATH: string;
export declare const READINESS_PATH: string;
