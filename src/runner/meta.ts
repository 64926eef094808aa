import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { HostCapabilities } from '../sandbox/types.js';
import type { EvalOptions } from './options.js';

export interface RunMeta {
  readonly metaVersion: 1;
  readonly runId: string;
  readonly startedAt: string;
  readonly options: EvalOptions;
  readonly cases: ReadonlyArray<{ readonly id: string; readonly file: string; readonly kind: string }>;
  readonly versions: { readonly hangbench: string; readonly node: string; readonly platform: string; readonly gitSha: string | null };
  readonly host: HostCapabilities;
  /** true when the harness was stopped before every attempt ran; `eval --resume` runs the rest into the same folder. */
  readonly interrupted?: boolean;
  /** when the run was resumed, each time. */
  readonly resumedAt?: readonly string[];
}

export async function hangbenchVersion(): Promise<string> {
  const manifest = fileURLToPath(new URL('../../package.json', import.meta.url));
  const parsed = JSON.parse(await readFile(manifest, 'utf8')) as { version?: string };
  return parsed.version ?? 'unknown';
}

export async function gitSha(cwd: string): Promise<string | null> {
  const result = await execa('git', ['rev-parse', 'HEAD'], { cwd, reject: false });
  if (result.exitCode !== 0) return null;
  const dirty = await execa('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, reject: false });
  return `${result.stdout.trim()}${dirty.stdout.trim() === '' ? '' : '-dirty'}`;
}
