import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceWriter } from '../../src/trace/writer.js';

describe('TraceWriter on a disk that refuses writes', () => {
  it('never throws, keeps every event in memory, and tells its fault listeners once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-writer-'));
    const file = path.join(dir, 'trace.jsonl');
    await symlink('/dev/full', file);
    const trace = new TraceWriter(file);
    const faults: string[] = [];
    trace.onFault((error) => faults.push(error.code ?? ''));
    for (let index = 0; index < 3; index += 1) trace.write({ type: 'error', where: 'test', message: `event ${index}` });
    trace.close();
    expect(trace.events.map((event) => event.seq)).toEqual([0, 1, 2]);
    expect(faults).toEqual(['ENOSPC']);
    expect(trace.fault?.code).toBe('ENOSPC');
  });

  it('a listener that throws does not stop the write or the other listeners', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-writer-'));
    const trace = new TraceWriter(path.join(dir, 'trace.jsonl'));
    const seen: number[] = [];
    trace.onEvent(() => {
      throw new Error('listener bug');
    });
    trace.onEvent((event) => seen.push(event.seq));
    trace.write({ type: 'error', where: 'test', message: 'one' });
    trace.close();
    expect(seen).toEqual([0]);
    expect(trace.fault).toBeNull();
    expect(await readFile(path.join(dir, 'trace.jsonl'), 'utf8')).toContain('"message":"one"');
  });
});
