import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderAttemptCard } from './attempt-card.js';
import { escapeHtml as esc } from './escape.js';
import { liveAttempt, liveRunReport } from './live-report.js';
import { renderReportHtml } from './page.js';
import { listRuns, watchTraces, type TraceChange } from './trace-watch.js';

export interface ViewServer {
  readonly url: string;
  close(): Promise<void>;
}

export interface ViewOptions {
  readonly root: string;
  readonly host?: string;
  /** 0: any free port. */
  readonly port?: number;
  readonly pollMs?: number;
}

const send = (response: ServerResponse, status: number, type: string, body: string): void => {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  response.end(body);
};

async function indexPage(root: string): Promise<string> {
  const runs = (await listRuns(root)).sort((a, b) => (a.id < b.id ? 1 : -1));
  const items = runs
    .map((run) => `<li><a href="/run/${encodeURIComponent(run.id)}/">${esc(run.id === '.' ? root : run.id)}</a></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hangbench runs</title></head><body><h1>hangbench runs in ${esc(root)}</h1><ul>${items || '<li>no runs yet</li>'}</ul></body></html>`;
}

/**
 * `hangbench view`: every run under `root`, rendered from its traces on each request, and one server-sent event
 * stream (/events) announcing each attempt whose trace grew; a page then fetches that attempt's card again.
 */
export async function startViewServer(options: ViewOptions): Promise<ViewServer> {
  const { root } = options;
  const clients = new Set<ServerResponse>();
  const stopWatching = watchTraces(
    root,
    (change: TraceChange) => {
      for (const client of clients) client.write(`event: attempt\ndata: ${JSON.stringify(change)}\n\n`);
    },
    options.pollMs,
  );
  const keepAlive = setInterval(() => {
    for (const client of clients) client.write(': keep-alive\n\n');
  }, 15_000);

  const runDir = async (id: string): Promise<string | null> =>
    (await listRuns(root)).find((run) => run.id === id)?.dir ?? null;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/') return send(response, 200, 'text/html', await indexPage(root));
    if (url.pathname === '/events') {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      response.write(': connected\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
      return;
    }
    const match = /^\/run\/([^/]+)\/(attempt)?$/.exec(url.pathname);
    const dir = match ? await runDir(decodeURIComponent(match[1]!)) : null;
    if (!match || dir === null) return send(response, 404, 'text/plain', `not found: ${url.pathname}\n`);
    if (match[2] === 'attempt') {
      const attempt = await liveAttempt(dir, url.searchParams.get('key') ?? '');
      return attempt
        ? send(response, 200, 'text/html', renderAttemptCard(attempt))
        : send(response, 404, 'text/plain', 'no such attempt\n');
    }
    const id = encodeURIComponent(decodeURIComponent(match[1]!));
    return send(
      response,
      200,
      'text/html',
      renderReportHtml(await liveRunReport(dir), {
        events: `/events?run=${id}`,
        attempt: `/run/${id}/attempt`,
        run: decodeURIComponent(match[1]!),
      }),
    );
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      send(response, 500, 'text/plain', `${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: async () => {
      stopWatching();
      clearInterval(keepAlive);
      for (const client of clients) client.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
