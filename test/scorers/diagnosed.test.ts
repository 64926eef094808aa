import { describe, expect, it } from 'vitest';
import { diagnosed } from '../../src/scorers/diagnosed.js';
import { CaseFileSchema } from '../../src/types/case.js';
import { matchesCulprit, type Culprit } from '../../src/types/culprit.js';
import type { TraceEvent } from '../../src/types/events.js';
import type { Classification, ProcessSample } from '../../src/types/process.js';
import { hangTrace, TraceBuilder } from './trace-builder.js';

const PARENT = { pid: 501, command: 'python3', args: '/usr/bin/python3 build.py' };
const WRITER = { pid: 502, command: 'python3', args: '/usr/bin/python3 toolchain/gzcc.py -O2 src/a.c' };

function process(sample: { pid: number; command: string; args: string }): ProcessSample {
  return {
    ...sample,
    ppid: 1,
    pgid: 1,
    sid: 1,
    state: 'S',
    wchan: 'anon_pipe_write',
    threadWchans: [],
    threads: 1,
    cpuPercent: 0,
    rssKb: 1,
    readBytes: 0,
    writeBytes: 0,
    syscall: null,
    fds: { pipes: 1, sockets: 0, total: 3 },
    stdinIsHarnessPipe: false,
    children: [],
  };
}

/** A hang trace whose case names `culprit`, with ticks that name the given process as their culprit. */
function trace(
  culprit: Culprit | undefined,
  ticks: ReadonlyArray<{ classification: Classification; names: number | null; afterOnset: boolean }>,
): TraceEvent[] {
  const builder: TraceBuilder = hangTrace().command(1);
  const before = ticks.filter((tick) => !tick.afterOnset);
  const after = ticks.filter((tick) => tick.afterOnset);
  before.forEach((tick, index) => builder.tick(1, tick.classification, index + 1));
  builder.onset(1);
  after.forEach((tick, index) => builder.tick(1, tick.classification, before.length + index + 1));
  const events = builder.end().build();
  const order = [...before, ...after];
  let tickIndex = 0;
  return events.map((event) => {
    if (event.type === 'attempt.start') return culprit ? { ...event, culprit } : event;
    if (event.type !== 'tick') return event;
    const tick = order[tickIndex++];
    return {
      ...event,
      culprit: tick?.names ?? null,
      snapshot: { source: 'proc', processes: [process(PARENT), process(WRITER)] },
    };
  });
}

describe('diagnosed', () => {
  const culprit = { command: 'python3', args: 'gzcc.py' };

  it('is true when the first hung tick after the onset names a process the matcher describes', () => {
    expect(
      diagnosed(trace(culprit, [{ classification: 'blocked-on-pipe', names: WRITER.pid, afterOnset: true }])),
    ).toBe(true);
  });

  it('is false when it names another process, even one with the same command', () => {
    expect(
      diagnosed(trace(culprit, [{ classification: 'blocked-on-pipe', names: PARENT.pid, afterOnset: true }])),
    ).toBe(false);
  });

  it('judges the first hung tick only: a later tick that names the culprit does not count', () => {
    const ticks = [
      { classification: 'progressing', names: null, afterOnset: true },
      { classification: 'sleeping', names: PARENT.pid, afterOnset: true },
      { classification: 'blocked-on-pipe', names: WRITER.pid, afterOnset: true },
    ] as const;
    expect(diagnosed(trace(culprit, ticks))).toBe(false);
  });

  it('ignores ticks before the onset, which are not about the hang', () => {
    const ticks = [
      { classification: 'sleeping', names: PARENT.pid, afterOnset: false },
      { classification: 'blocked-on-pipe', names: WRITER.pid, afterOnset: true },
    ] as const;
    expect(diagnosed(trace(culprit, ticks))).toBe(true);
  });

  it('is false when no tick after the onset looked hung or named anyone, null for cases without a culprit and for controls', () => {
    expect(diagnosed(trace(culprit, [{ classification: 'progressing', names: null, afterOnset: true }]))).toBe(false);
    expect(diagnosed(trace(culprit, [{ classification: 'sleeping', names: null, afterOnset: true }]))).toBe(false);
    expect(
      diagnosed(trace(undefined, [{ classification: 'sleeping', names: WRITER.pid, afterOnset: true }])),
    ).toBeNull();
    expect(diagnosed(new TraceBuilder({ kind: 'control' }).end().build())).toBeNull();
  });
});

describe('hang.culprit', () => {
  it('matches the exact comm and a literal or /regex/ part of the command line', () => {
    expect(matchesCulprit({ command: 'python3', args: 'gzcc.py' }, WRITER)).toBe(true);
    expect(matchesCulprit({ command: 'python' }, WRITER)).toBe(false);
    expect(matchesCulprit({ command: '/^(pager|less)$/' }, { command: 'less', args: 'less' })).toBe(true);
    expect(matchesCulprit({ args: '/gzcc\\.py -O\\d/' }, WRITER)).toBe(true);
  });

  it('rejects a matcher with neither field, or a broken regex, with a message saying what to fix', () => {
    const base = { title: 't', kind: 'hang', fixture: 'f', issue: 'i', repro: 'r', verify: [{ run: 'true' }] };
    const empty = CaseFileSchema.safeParse({
      ...base,
      hang: { class: 'busy-loop', onset: { start: true }, culprit: {} },
    });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((issue) => issue.message)).toContain('give command, args, or both');
    const broken = CaseFileSchema.safeParse({
      ...base,
      hang: { class: 'busy-loop', onset: { start: true }, culprit: { args: '/(unclosed/' } },
    });
    expect(broken.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'hang.culprit.args: not a valid /regex/: fix the expression or drop the slashes for a literal',
    ]);
  });
});
