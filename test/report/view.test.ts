import { get, type IncomingMessage } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../src/report/html/view-server.js';
import type { TraceChange } from '../../src/report/html/trace-watch.js';
import { execa } from 'execa';
import { evalRun, root } from '../cli/run-helpers.js';

const fetchText = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
};

/** Reads a server-sent event stream with a plain HTTP client, collecting the `attempt` events. */
interface Subscription {
  readonly events: TraceChange[];
  readonly response: IncomingMessage;
  next(predicate: (change: TraceChange) => boolean): Promise<TraceChange>;
}

function subscribe(url: string): Promise<Subscription> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      expect(response.headers['content-type']).toBe('text/event-stream');
      const events: TraceChange[] = [];
      const waiters: Array<{ predicate: (change: TraceChange) => boolean; resolve: (change: TraceChange) => void }> =
        [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: attempt\ndata: (.*)$/m.exec(message)?.[1];
          if (data === undefined) continue;
          const change = JSON.parse(data) as TraceChange;
          events.push(change);
          for (const waiter of waiters.filter((w) => w.predicate(change))) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(change);
          }
        }
      });
      resolve({
        events,
        response,
        next: (predicate) => {
          const seen = events.find(predicate);
          return seen ? Promise.resolve(seen) : new Promise((done) => waiters.push({ predicate, resolve: done }));
        },
      });
    }).on('error', reject);
  });
}

describe('hangbench view', () => {
  let server: ViewServer;
  let results = '';

  beforeAll(async () => {
    results = await mkdtemp(path.join(tmpdir(), 'hangbench-view-'));
    server = await startViewServer({ root: results, pollMs: 50 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('listens on loopback only', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('streams a running attempt as its trace grows, then serves its finished report', async () => {
    const stream = await subscribe(`${server.url}/events`);
    const run = evalRun(results, 'live', [], [path.join(import.meta.dirname, '../../cases/node-busy-loop.yaml')]);
    const running = await stream.next((change) => change.run === 'live' && change.running);
    expect(running.key).toMatch(/^node-busy-loop\/[^/]+\/1$/);
    // while it runs, the page and the attempt's own card are rendered from the trace as it stands
    const card = await fetchText(`${server.url}/run/live/attempt?key=${encodeURIComponent(running.key)}`);
    expect(card.status).toBe(200);
    expect(card.text).toMatch(/<section class="attempt (running|solved)" data-key="node-busy-loop\//);
    const finished = await stream.next((change) => change.key === running.key && !change.running);
    expect(finished.lastEvent).toBe('attempt.end');
    const growth = stream.events.filter((change) => change.key === running.key).map((change) => change.events);
    expect(growth.length).toBeGreaterThanOrEqual(2);
    expect(growth).toEqual([...growth].sort((a, b) => a - b));
    await run;
    stream.response.destroy();

    const page = await fetchText(`${server.url}/run/live/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="live-config"');
    expect(page.text).toMatch(/<section class="attempt solved" data-key="node-busy-loop\//);
    expect((await fetchText(`${server.url}/`)).text).toContain('href="/run/live/"');
  });

  it('answers 404 for a run or attempt that is not there, and refuses paths out of the results folder', async () => {
    expect((await fetchText(`${server.url}/run/nope/`)).status).toBe(404);
    expect(
      (await fetchText(`${server.url}/run/live/attempt?key=${encodeURIComponent('../../etc/passwd')}`)).status,
    ).toBe(404);
    expect((await fetchText(`${server.url}/run/..%2F..%2Fetc/`)).status).toBe(404);
  });
});

describe('hangbench view (the command)', () => {
  it('prints its loopback URL, serves, and stops with exit 0 on SIGTERM', async () => {
    const results = await mkdtemp(path.join(tmpdir(), 'hangbench-view-cli-'));
    const child = execa('node', [path.join(root, 'bin/hangbench.js'), 'view', results], { reject: false });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        const match = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
      void child.then((result) => reject(new Error(`view exited ${result.exitCode}: ${result.stderr}`)));
    });
    expect((await fetchText(`${url}/`)).text).toContain('no runs yet');
    child.kill('SIGTERM');
    expect((await child).exitCode).toBe(0);
  });

  it('refuses a host that is not loopback', async () => {
    const result = await execa('node', [path.join(root, 'bin/hangbench.js'), 'view', '--host', '0.0.0.0'], {
      reject: false,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('loopback only');
  });
});
