// Types of scripts/fleet.mjs for the fleet test (test/fleet/).
export type TFleetOptions = {
  primaryUrl: string;
  basePort?: number;
  dir?: string;
  log?: (line: string) => void;
  output?: "inherit" | "files";
  env?: Record<string, string>;
  build?: boolean;
  keepDir?: boolean;
};
export type TFleetPorts = { haproxy: number; replica: number; pgbouncer: number; apps: number[]; metrics: number[] };
export type TFleet = {
  url: string;
  dir: string;
  ports: TFleetPorts;
  primaryUrl: string;
  bouncerUrl: string;
  replicaUrl: string;
  metricsUrl: (index: number) => string;
  pid: (index: number) => number | undefined;
  exited: (index: number) => Promise<{ code: number | null; signal: string | null }>;
  stopInstance: (index: number, signal?: NodeJS.Signals) => Promise<void>;
  startInstance: (index: number) => Promise<void>;
  restartInstance: (index: number) => Promise<void>;
  stopReplica: () => Promise<void>;
  startReplica: () => Promise<string>;
  stop: () => Promise<void>;
};
export declare function ports(base: number): TFleetPorts;
export declare function ensurePackages(log?: (line: string) => void): void;
export declare function startFleet(options: TFleetOptions): Promise<TFleet>;
