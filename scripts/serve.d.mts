// Types of scripts/serve.mjs for the TypeScript tests that exercise it.
import type { IncomingMessage } from "node:http";

export declare const SOCKET_ADDRESS_HEADER: string;
export declare function stampSocketAddress(req: IncomingMessage): void;
