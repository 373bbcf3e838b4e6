#!/usr/bin/env node
// The MCP companion over stdio (scripts/mcp-stdio.ts) as the package's command: agent hosts
// run `finance-mcp --token agt_… --url http://localhost:3000`. TypeScript is loaded through
// tsx, as the project's other scripts are.
import { register } from "tsx/esm/api";

register();
await import("../scripts/mcp-stdio.ts");
