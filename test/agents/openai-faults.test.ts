import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { EndpointError, LimitExceeded } from '../../src/types/errors.js';
import { agentContext, taskObservation, tick } from '../support/agent-fixtures.js';
import { TEST_KEY, testAgent, useFakeServer } from './openai-helpers.js';

const serve = useFakeServer();

const RUN = { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] } as const;

describe('openai agent: endpoint faults', () => {
  test('429 with retry-after-ms, then 500, then success: each retry is reported, the pauses obey the server', async () => {
    const fake = await serve([
      { kind: 'fault', status: 429, headers: { 'retry-after-ms': '25' } },
      { kind: 'fault', status: 500 },
      RUN,
    ]);
    const context = agentContext();
    const agent = testAgent(fake);
    await expect(agent.factory.create(context).next(taskObservation())).resolves.toEqual({
      type: 'run',
      command: 'python3 build.py',
    });

    expect(fake.requests).toHaveLength(3);
    expect(agent.pauses[0]).toBe(25);
    expect(agent.pauses[1]).toBeGreaterThanOrEqual(5);
    expect(context.report.notes.map((note) => note.kind)).toEqual(['retry', 'retry']);
    expect(context.report.notes[0]?.message).toMatch(/^HTTP 429 .*retry 1\/3 in 25ms \(retry-after\)$/);
    expect(context.report.responses).toHaveLength(1);
  });

  test('a retry-after longer than the cap is cut to the cap', async () => {
    const fake = await serve([{ kind: 'fault', status: 429, headers: { 'retry-after': '120' } }, RUN]);
    const agent = testAgent(fake);
    await agent.factory.create(agentContext()).next(taskObservation());
    expect(agent.pauses).toEqual([100]);
  });

  test('a response slower than the request timeout is retried', async () => {
    // The first reply never comes in time; the timeout leaves a loaded machine ample room for the second.
    const fake = await serve([{ ...RUN, delayMs: 60_000 }, RUN]);
    const context = agentContext();
    const agent = testAgent(fake, { requestTimeoutMs: 2_000 });
    await expect(agent.factory.create(context).next(taskObservation())).resolves.toMatchObject({ type: 'run' });
    expect(context.report.notes[0]?.message).toMatch(/^request timed out/);
  });

  test('a 200 whose body is not JSON is retried', async () => {
    const fake = await serve([{ kind: 'raw', status: 200, body: '{"choices": [' }, RUN]);
    const context = agentContext();
    await expect(testAgent(fake).factory.create(context).next(taskObservation())).resolves.toMatchObject({
      type: 'run',
    });
    expect(context.report.notes[0]?.message).toMatch(/^unreadable response/);
  });

  test('retries are bounded: then an EndpointError (an ERROR outcome) that says what failed', async () => {
    const fake = await serve(() => ({ kind: 'fault', status: 503, message: 'overloaded' }));
    const error = await testAgent(fake)
      .factory.create(agentContext())
      .next(taskObservation())
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(EndpointError);
    expect(fake.requests).toHaveLength(4);
    expect((error as EndpointError).status).toBe(503);
    expect((error as Error).message).toBe(
      `model endpoint ${fake.baseURL} failed: HTTP 503 (503 overloaded); 4 tries, retries exhausted`,
    );
  });

  test('401 is not retried, and the key never appears even when the server echoes it', async () => {
    const fake = await serve([{ kind: 'fault', status: 401, message: `Incorrect API key provided: ${TEST_KEY}` }]);
    const context = agentContext();
    const error = (await testAgent(fake)
      .factory.create(context)
      .next(taskObservation())
      .catch((caught: unknown) => caught)) as Error;

    expect(error).toBeInstanceOf(EndpointError);
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('check OPENAI_API_KEY');
    expect(`${error.message} ${error.stack} ${JSON.stringify(context.report)}`).not.toContain(TEST_KEY.slice(8));
  });

  test('an abort of the attempt (wall or token budget) stops a slow call at once', async () => {
    const fake = await serve([{ ...RUN, delayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = testAgent(fake)
      .factory.create(agentContext({ signal: controller.signal }))
      .next(taskObservation());
    await fake.received(1);
    controller.abort({ kind: 'wall' });
    await expect(pending).rejects.toEqual({ kind: 'wall' });
  });
});

describe('openai agent: token budget', () => {
  test('stops before a call that would go over budgets.tokens with LimitExceeded(tokens)', async () => {
    const fake = await serve([
      { ...RUN, usage: { prompt: 25_000, completion: 50 } },
      { toolCalls: [{ name: 'wait' }], usage: { prompt: 25_100, completion: 50 } },
    ]);
    const context = agentContext();
    const session = testAgent(fake).factory.create(context);
    await session.next(taskObservation());
    await session.next(tick(1));
    const error = await session.next(tick(2)).catch((caught: unknown) => caught);

    expect(fake.requests).toHaveLength(2);
    expect(error).toBeInstanceOf(LimitExceeded);
    expect(error).toMatchObject({ kind: 'tokens', limit: 60_000 });
    expect((error as LimitExceeded).value).toBeGreaterThan(50_200 + 25_100);
  });

  test('the very first call is checked too, from the o200k count of the prompt and the tools', async () => {
    const fake = await serve([RUN]);
    const error = await testAgent(fake)
      .factory.create(agentContext({ budgets: { tokens: 300, wallMs: 1000, interruptMs: 1000 } }))
      .next(taskObservation())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LimitExceeded);
    expect(fake.requests).toHaveLength(0);
  });

  test('a response without usage is counted with o200k and flagged', async () => {
    const fake = await serve([{ ...RUN, usage: null }]);
    const context = agentContext();
    await testAgent(fake).factory.create(context).next(taskObservation());
    expect(context.report.responses[0]?.usage.promptTokens).toBeGreaterThan(300);
    expect(context.report.notes).toEqual([
      { kind: 'agent', message: 'the endpoint sent no usage; tokens of turn 1 counted with o200k' },
    ]);
  });
});

describe('fake OpenAI server', () => {
  test('streams SSE chunks, tool-call pieces and usage when the client asks for stream: true', async () => {
    const fake = await serve([
      {
        content: 'Running the build.',
        toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }],
        usage: { prompt: 50, completion: 9 },
      },
    ]);
    const client = new OpenAI({ apiKey: 'unused', baseURL: fake.baseURL, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let args = '';
    let name = '';
    let usage: number | undefined;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      usage = chunk.usage?.total_tokens ?? usage;
    }
    expect({ content, name, args: JSON.parse(args) as unknown, usage }).toEqual({
      content: 'Running the build.',
      name: 'run',
      args: { command: 'python3 build.py' },
      usage: 59,
    });
  });
});
