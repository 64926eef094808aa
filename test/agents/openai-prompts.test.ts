import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ResponseCache } from '../../src/agents/openai/cache.js';
import { listBuiltinPrompts, loadPromptSet } from '../../src/agents/openai/prompt-set.js';
import { compileTemplate } from '../../src/types/template.js';
import { HangbenchError } from '../../src/types/errors.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai-server.js';
import { agentContext, taskObservation } from '../support/agent-fixtures.js';
import { testAgent } from './openai-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-prompts-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('templates', () => {
  test('fills {{name}} placeholders, spaces allowed', () => {
    expect(
      compileTemplate('after {{ elapsed }}: {{output}}', 't.md', ['elapsed', 'output']).render({
        elapsed: '3.0s',
        output: 'x',
      }),
    ).toBe('after 3.0s: x');
  });

  test('an unknown placeholder fails at load, naming it, the file and the names that exist', () => {
    expect(() => compileTemplate('{{elapsd}}', 'prompts/x/tick.md', ['elapsed', 'output'])).toThrow(
      new HangbenchError(
        'CONFIG',
        'prompts/x/tick.md: unknown placeholder {{elapsd}}; this template can use {{elapsed}}, {{output}}',
      ),
    );
  });
});

describe('prompt sets', () => {
  test('the built-in prompts load: minimal, minimal-user, diagnostic, no-output, heartbeat', () => {
    expect(listBuiltinPrompts()).toEqual(['diagnostic', 'heartbeat', 'minimal', 'minimal-user', 'no-output']);
    for (const name of listBuiltinPrompts()) expect(loadPromptSet(name, process.cwd()).name).toBe(name);
    expect(loadPromptSet('minimal-user', process.cwd()).tickDelivery).toBe('user-message');
  });

  test('a folder of your own, and clear errors for a missing prompt or a typo in its template', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'prompt.json'), JSON.stringify({ system: 'sys.md', task: 'task.md' }));
    await writeFile(path.join(dir, 'sys.md'), 'Be brief.');
    await writeFile(path.join(dir, 'task.md'), '{{issue}}');
    await writeFile(path.join(dir, 'tick.md'), '{{elapsed}} {{classificaton}}');
    expect(() => loadPromptSet(dir, '/')).toThrow(/tick\.md: unknown placeholder \{\{classificaton\}\}/);
    await writeFile(path.join(dir, 'tick.md'), '{{elapsed}}');
    expect(loadPromptSet(dir, '/').tick.placeholders).toEqual(['elapsed']);
    expect(() => loadPromptSet('nope', process.cwd())).toThrow(
      /--prompt nope: no .*prompt\.json; built-in prompts: diagnostic, heartbeat, minimal, minimal-user, no-output/,
    );
  });
});

describe('response cache (--cache DIR)', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  test('off by default; with a dir, the same request and repeat is answered from disk, another repeat is not', async () => {
    fake = await startFakeOpenAI(() => ({
      toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }],
      usage: { prompt: 700, completion: 12 },
    }));
    const cache = new ResponseCache(await tempDir());
    const agent = testAgent(fake, { cache });

    await agent.factory.create(agentContext({ repeat: 1 })).next(taskObservation());
    const again = agentContext({ repeat: 1 });
    await expect(agent.factory.create(again).next(taskObservation())).resolves.toMatchObject({ type: 'run' });
    expect(fake.requests).toHaveLength(1);
    expect(again.report.responses).toEqual([
      { turn: 1, usage: { promptTokens: 700, completionTokens: 12, cachedTokens: 0 }, latencyMs: 0 },
    ]);
    expect(again.report.notes[0]?.kind).toBe('cache');

    await agent.factory.create(agentContext({ repeat: 2 })).next(taskObservation());
    expect(fake.requests).toHaveLength(2);
    await testAgent(fake)
      .factory.create(agentContext({ repeat: 1 }))
      .next(taskObservation());
    expect(fake.requests).toHaveLength(3);
  });
});
