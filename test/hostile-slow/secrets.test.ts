import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai-server.js';
import { PROJECT_ROOT } from './run-hostile.js';

const bin = path.join(PROJECT_ROOT, 'bin/hangbench.js');
const fixtures = path.join(PROJECT_ROOT, 'test/fixtures/hostile');

/** Planted in the harness's environment; none may appear in a command, a trace, a report, a log or an error. */
const PLANTED: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: 'sk-test-PLANTED-123',
  ANTHROPIC_API_KEY: 'sk-ant-PLANTED-456',
  GITHUB_TOKEN: 'ghp_PLANTED789',
  AWS_SECRET_ACCESS_KEY: 'PLANTED-aws-secret',
  DATABASE_PASSWORD: 'PLANTED-db-password',
  DATABASE_URL: 'postgres://app:PLANTED-url-password@db.internal/app',
};
const SECRET_VALUES = Object.values(PLANTED).map((value) => value.replace(/^.*?(PLANTED[\w-]*).*$/, '$1'));

function hangbench(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn('node', [bin, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...PLANTED, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** Every file under dir, binary-safe, each with its path. */
async function everyFile(dir: string): Promise<Array<{ file: string; text: string }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file, text: await readFile(file, 'latin1') };
      }),
  );
}

function expectNoSecret(where: string, text: string): void {
  const found = SECRET_VALUES.filter((secret) => text.includes(secret));
  expect(found, `${where} carries a planted secret`).toEqual([]);
}

describe('no secret from the harness environment reaches a command, a trace, a report or an error message', () => {
  let endpoint: FakeOpenAI;
  // A hostile endpoint: it fails (once retryably, then for good) and echoes the credentials it was sent in its errors.
  beforeAll(async () => {
    endpoint = await startFakeOpenAI((request, index) => ({
      kind: 'fault',
      status: index === 0 ? 500 : 401,
      message: `upstream failed for ${String(request.headers.authorization)}`,
    }));
  });
  afterAll(() => endpoint.close());

  it('a program that prints every variable, a failing verify, a broken patch and an endpoint error: grep everything for the planted values', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-secrets-'));
    const cases = ['special/env-dump.yaml', 'bad-input/verify-command-missing.yaml', 'bad-input/stale-patch.yaml'].map(
      (file) => path.join(fixtures, file),
    );
    const oracle = await hangbench([
      'eval',
      ...cases,
      '--agent',
      'oracle',
      '--time-scale',
      '0.1',
      '--out',
      out,
      '--run-id',
      'oracle',
    ]);
    const openai = await hangbench([
      'eval',
      path.join(fixtures, 'special/env-dump.yaml'),
      '--agent',
      'openai',
      '--model',
      'fake-model',
      '--base-url',
      endpoint.baseURL,
      '--time-scale',
      '0.1',
      '--out',
      out,
      '--run-id',
      'openai',
      '--json',
    ]);
    expect(oracle.code).toBe(0);
    expect(openai.code).toBe(0);

    const files = await everyFile(out);
    // The programs really looked: the dump ran (its log shows the sandbox's own variables), the endpoint was called.
    const dump = files.find((entry) =>
      entry.file.endsWith(path.join('oracle/env-dump/oracle·interval-10s/1/command-1.log')),
    );
    expect(dump?.text).toContain('HANGBENCH_ATTEMPT=oracle.env-dump');
    expect(dump?.text).toContain('dump done');
    expect(endpoint.requests.length).toBeGreaterThan(0);
    expect(String(endpoint.requests[0]?.headers.authorization)).toContain(PLANTED.OPENAI_API_KEY);
    const openaiTrace = files.find(
      (entry) => entry.file.includes(path.join('openai', 'env-dump')) && entry.file.endsWith('trace.jsonl'),
    )?.text;
    expect(openaiTrace).toMatch(
      /"type":"agent.note","kind":"retry","message":"HTTP 500 \(500 upstream failed for Bearer \[redacted\]\)/,
    );
    expect(openaiTrace).toMatch(/"type":"error"[^\n]*model endpoint[^\n]*HTTP 401/);

    for (const { file, text } of files) expectNoSecret(file, text);
    expectNoSecret('oracle run stdout/stderr', oracle.output);
    expectNoSecret('openai run stdout/stderr', openai.output);
  });
});
