import type { Adapter } from './adapter.js';
import type { InstalledPackage } from './install.js';

/** An installed agent CLI (`cli:<name>`), one of agents/protocol.ts's AgentFactory: the attempt runs it in the sandbox and observes the commands it runs. */
export interface InstalledAgentFactory {
  readonly kind: 'installed';
  readonly name: string;
  readonly installed: InstalledAgent;
}

/** What an attempt needs of an installed agent CLI. */
export interface InstalledAgent {
  readonly adapterName: string;
  /** the adapter with the variant's settings resolved, and its package installed (null: a command on PATH). */
  prepare(): Promise<{
    readonly adapter: Adapter;
    readonly settings: Readonly<Record<string, string>>;
    readonly installed: InstalledPackage | null;
  }>;
  readonly model: string;
  /** the real endpoint and key: the model proxy's, never the agent's. null: `--model probe`, the proxy answers itself. */
  readonly upstream: string | null;
  readonly apiKey: string | undefined;
  /**
   * The adapter's own shell-tool deadlines with the variant's settings, in ms (null: it declares none); known once
   * `prepare()` has resolved, which the run does for every variant before its first attempt.
   */
  toolTimeouts(): Readonly<Record<string, number>> | null;
  /** `generic`'s command (--cmd). */
  readonly cmd?: string;
}
