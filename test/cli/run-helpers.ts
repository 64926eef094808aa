import path from 'node:path';
import { execa } from 'execa';

export const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/hangbench.js');

/** Four of the quickest library cases at --time-scale 0.1 (three hangs, one control): seconds, not minutes. */
export const QUICK_CASES = ['node-busy-loop', 'bash-tail-follow', 'node-promise-timer', 'ctl-block-buffered'].map(
  (id) => path.join(root, 'cases', `${id}.yaml`),
);

export function hangbench(args: readonly string[]) {
  return execa('node', [bin, ...args], { cwd: root, reject: false, env: { CI: '1' } });
}

export async function evalRun(out: string, runId: string, args: readonly string[] = [], cases = QUICK_CASES) {
  const result = await hangbench([
    'eval',
    ...cases,
    '--agent',
    'oracle',
    '--time-scale',
    '0.1',
    '--concurrency',
    '2',
    '--out',
    out,
    '--run-id',
    runId,
    '--json',
    ...args,
  ]);
  if (result.exitCode !== 0) throw new Error(`eval ${runId} exited ${result.exitCode}: ${result.stderr}`);
  return path.join(out, runId);
}
