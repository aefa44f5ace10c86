import type { RunningInfra } from '../infra/infra-provider';

export interface StartPlatformOptions {
  infra: RunningInfra;
  /** Storage, secrets.json; keep it between starts to keep links and the dev key valid. */
  dataDir: string;
  /** 0: free ports for every service (tests). Default 8080, other services on fixed ports. */
  gatewayPort?: number;
  /** Added to every service's environment, after the platform's own variables. */
  extraEnv?: Record<string, string>;
  /** When set, each service writes to <logDir>/<name>.log; otherwise output is forwarded, prefixed by name. */
  logDir?: string;
  /** Converter families to run, one process each. Default ['image']. */
  families?: string[];
  /** Gateway processes (default 1); extra ones are named gateway-2, gateway-3 … */
  gatewayReplicas?: number;
  /**
   * More processes of other services, as a cluster runs more pods:
   * `{ 'job-orchestrator': 2, 'converter-image': 2 }` adds job-orchestrator-2
   * and converter-image-2 (same service, same environment, own port).
   */
  replicas?: Record<string, number>;
}

/** A view of one service process; reflects restarts through startService. */
export interface ManagedService {
  readonly name: string;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly pid: number | undefined;
  readonly running: boolean;
}

export interface RunningPlatform {
  /** The gateway, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** Every gateway replica's base URL, the first being baseUrl. */
  gatewayUrls: string[];
  devApiKey: string;
  /** The MCP server ({mcp_url}), e.g. http://127.0.0.1:8086/mcp */
  mcpUrl: string;
  services: ManagedService[];
  /** The variables shared by every service (without TRANSMUTE_HTTP_PORT). */
  env: Record<string, string>;
  /** Graceful stop of one service (SIGTERM, then SIGKILL after 10 s). */
  stopService(name: string): Promise<void>;
  /** Sends a signal and returns at once (crash tests). */
  killService(name: string, signal: NodeJS.Signals): void;
  /** Starts a stopped service again on the same port and waits for its /readyz. */
  startService(name: string): Promise<void>;
  /** Stops every service; none is left behind. Safe to call more than once. */
  stop(): Promise<void>;
}
