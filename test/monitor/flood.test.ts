import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_WINDOW } from '../../src/monitor/index.js';
import type { Tick } from '../../src/types/process.js';
import { disposeWatched, watch } from './watch.js';
import { describeOnLinux } from '../support/capability.js';

afterEach(disposeWatched);

const FLOOD_BYTES = 200 * 1024 * 1024;

/** A real collection before the baseline is read, without starting the worker with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describeOnLinux('output flood', () => {
  it('is classified output-flood while the harness memory stays bounded', async () => {
    collectGarbage();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const { tree, monitor, events } = await watch('bash flood.sh', { mode: { mode: 'interval', everyMs: 200 } });
    const ticks: Tick[] = [];
    for (;;) {
      const event = await monitor.nextTickOrExit();
      if (event.type === 'exit') expect.fail('the flood exited on its own');
      ticks.push(event.tick);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      if (event.tick.totalOutputBytes >= FLOOD_BYTES && ticks.some((tick) => tick.classification === 'output-flood'))
        break;
    }
    await tree.kill('harness', 'flood test done');
    const exit = await monitor.nextTickOrExit();
    expect(exit.type).toBe('exit');

    // 200 MB went through; the harness must not have kept it.
    expect(rssPeak - rssBefore).toBeLessThan(100 * 1024 * 1024);
    const flood = ticks.find((tick) => tick.classification === 'output-flood')!;
    expect(flood.reason).toMatch(/of output in|repeat/);
    expect(flood.output.cutBytes).toBeGreaterThan(0);
    expect(flood.output.text.length).toBeLessThan(DEFAULT_WINDOW.headBytes + DEFAULT_WINDOW.tailBytes + 200);
    expect(flood.output.text).toContain('(line repeated');
    // one output event per tick at most (plus one before exit), never one per chunk
    expect(events.filter((event) => event.type === 'output').length).toBeLessThanOrEqual(ticks.length + 1);
    expect(monitor.tail(100)).toMatch(/Release notes\n$/);
  });
});
