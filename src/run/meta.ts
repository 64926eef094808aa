import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { z } from 'zod';
import { CaseKindSchema } from '../types/case.js';
import { HangbenchError } from '../types/errors.js';
import { VariantSpecSchema } from '../types/variant.js';
import { RUN_FILES } from '../types/run-files.js';

/** meta.json version 2: options carry resolved variants, the seed and the attempt order. */
export const META_VERSION = 2;

/** The resolved options as meta.json keeps them: what `resume`, `merge`, `compare` and `score` rely on. */
const RecordedOptionsSchema = z.strictObject({
  caseInputs: z.array(z.string()),
  variants: z.array(VariantSpecSchema).min(1),
  timeScale: z.number().positive(),
  /** absent: the scheduler's default, by load. */
  concurrency: z.number().int().positive().optional(),
  repeat: z.number().int().positive(),
  seed: z.number().int(),
  out: z.string(),
  maxTurns: z.number().int().positive(),
  verifyFloorMs: z.number().nonnegative(),
  cwd: z.string(),
  runId: z.string(),
  config: z.string().optional(),
  /** exec agents: the names (never the values) of the variables their process gets, and the hosts their proxy allows. */
  agentEnv: z.array(z.string()).optional(),
  agentAllowHosts: z.array(z.string()).optional(),
  /** this run is slice index of count (`--shard i/n`); `hangbench merge` joins them. */
  shard: z.strictObject({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
});

export const RunMetaSchema = z.strictObject({
  metaVersion: z.literal(META_VERSION),
  runId: z.string(),
  startedAt: z.string(),
  options: RecordedOptionsSchema,
  cases: z.array(z.strictObject({ id: z.string(), file: z.string(), kind: CaseKindSchema })),
  versions: z.strictObject({
    hangbench: z.string(),
    node: z.string(),
    platform: z.string(),
    gitSha: z.string().nullable(),
  }),
  /** what the host offered (kill mechanism, cgroups, namespaces, isolation): recorded as probed, read for display only. */
  host: z.record(z.string(), z.unknown()),
  /** attempt ids (case/variant/repeat) in the order they were started: the seeded interleaving, for fairness audits. */
  order: z.array(z.string()).optional(),
  /** true when the harness was stopped before every attempt ran; `eval --resume` runs the rest into the same folder. */
  interrupted: z.boolean().optional(),
  /** when the run was resumed, each time. */
  resumedAt: z.array(z.string()).optional(),
  /** a run joined by `hangbench merge`: the shards it was made of. */
  mergedFrom: z
    .array(
      z.strictObject({
        index: z.number().int(),
        count: z.number().int(),
        runId: z.string(),
        startedAt: z.string(),
        attempts: z.number().int(),
      }),
    )
    .optional(),
});

export type RunMeta = z.infer<typeof RunMetaSchema>;

/** meta.json of a run folder, validated: a clear error for a missing, unreadable, old or malformed one. */
export async function readRunMeta(runDir: string): Promise<RunMeta> {
  const file = path.join(runDir, RUN_FILES.meta);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null)
    throw new HangbenchError(
      'RUN_FOLDER',
      `${runDir} has no readable meta.json; pass a run folder such as results/<run-id>`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HangbenchError('RUN_FOLDER', `${file}: not valid JSON (${(error as Error).message})`);
  }
  const version = (raw as { metaVersion?: unknown } | null)?.metaVersion;
  if (version !== META_VERSION) {
    throw new HangbenchError(
      'RUN_FOLDER',
      `${file}: metaVersion ${JSON.stringify(version)} is not ${META_VERSION}, the one this hangbench reads; re-run it with this version`,
    );
  }
  const parsed = RunMetaSchema.safeParse(raw);
  if (!parsed.success)
    throw new HangbenchError('RUN_FOLDER', `${file}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  return parsed.data;
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
