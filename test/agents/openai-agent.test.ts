import { describe, expect, test } from 'vitest';
import { agentContext, exitObservation, output, result, taskObservation, tick } from '../support/agent-fixtures.js';
import { lastMessage, messagesOf, TEST_KEY, testAgent, useFakeServer } from './openai-helpers.js';

const serve = useFakeServer();

describe('openai agent: the tool-calling loop', () => {
  test('sends the task with the nine action tools, and turns the tool call into an action', async () => {
    const fake = await serve([
      {
        toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }],
        usage: { prompt: 900, completion: 15, cached: 512 },
      },
    ]);
    const context = agentContext();
    const session = testAgent(fake).factory.create(context);

    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'run', command: 'python3 build.py' });
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(request?.body.model).toBe('fake-model');
    expect(request?.body.tools?.map((tool) => tool.function.name)).toEqual([
      'run',
      'wait',
      'poll',
      'kill',
      'input',
      'read',
      'write',
      'edit',
      'finish',
    ]);
    expect(request?.body.tools?.[0]?.function.parameters).toMatchObject({
      type: 'object',
      required: ['command'],
      additionalProperties: false,
    });
    expect(request?.body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(String(request?.body.messages[1]?.content)).toContain('`python3 build.py` hangs forever.');
    expect(context.report.requests).toEqual([{ turn: 1, messages: 2 }]);
    expect(context.report.responses).toMatchObject([
      { turn: 1, usage: { promptTokens: 900, completionTokens: 15, cachedTokens: 512 } },
    ]);
  });

  test("a tick arrives as the result of the pending run call, exactly as the session rendered it with the prompt's template", async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
      { toolCalls: [{ name: 'kill', arguments: {} }] },
    ]);
    const { factory } = testAgent(fake);
    const session = factory.create(agentContext());
    await session.next(taskObservation());

    const observation = tick(
      2,
      { output: output('[build] compiling 12 units\n'), sinceOutputMs: 2500 },
      factory.tickTemplate,
    );
    const decision = await session.next(observation);

    expect(decision).toEqual({ type: 'kill' });
    const message = lastMessage(fake);
    expect(message).toMatchObject({ role: 'tool', tool_call_id: 'call_1_1' });
    expect(observation.text).toBe(
      '[command #1 still running after 2.0s; no output for 2.5s]\nnew output (27 B):\n| [build] compiling 12 units',
    );
    expect(message.content).toBe(observation.text);
  });

  test('the diagnostic prompt adds the process tree and the classification', async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
      { toolCalls: [{ name: 'wait' }] },
    ]);
    const { factory } = testAgent(fake, { promptName: 'diagnostic' });
    const session = factory.create(agentContext());
    await session.next(taskObservation());
    await session.next(tick(3, {}, factory.tickTemplate));

    const text = String(lastMessage(fake).content);
    expect(text).toContain('monitor report 3');
    expect(text).toContain('  101 gzcc S pipe_write cpu 0% rss 8MB · python3 gzcc -v');
    expect(text).toContain("monitor's guess: blocked-on-pipe — gzcc is blocked writing to a full pipe");
  });

  test('with tickDelivery user-message the tool result is short and the tick follows as a user message', async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
      { toolCalls: [{ name: 'wait' }] },
    ]);
    const { factory } = testAgent(fake, { promptName: 'minimal-user' });
    const session = factory.create(agentContext());
    await session.next(taskObservation());
    await session.next(tick(1, {}, factory.tickTemplate));

    const messages = messagesOf(fake, 1).slice(-2);
    expect(messages[0]).toMatchObject({
      role: 'tool',
      content: 'command #1 is still running; monitor report 1 follows',
    });
    expect(messages[1]).toMatchObject({ role: 'user' });
    expect(String(messages[1]?.content)).toContain('still running after 1.0s');
  });

  test('action results and exits become tool results', async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'read', arguments: { path: 'build.py' } }] },
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
      { toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] },
    ]);
    const session = testAgent(fake).factory.create(agentContext());
    await session.next(taskObservation());
    await session.next(result('read', true, 'build.py: 12 characters', 'print("hi")\n'));
    expect(lastMessage(fake)).toMatchObject({ role: 'tool', content: 'ok: build.py: 12 characters\nprint("hi")\n' });

    await expect(session.next(exitObservation(true))).resolves.toEqual({ type: 'finish', summary: 'done' });
    expect(lastMessage(fake).content).toBe(
      'command #1 was ended by SIGINT after 3.2s — you killed it (SIGINT)\nlast output:\ncompiling 12 units',
    );
  });

  test('several tool calls in one reply run in turn; a tick arriving first answers the rest "not run"', async () => {
    const fake = await serve([
      {
        toolCalls: [
          { name: 'read', arguments: { path: 'a.py' } },
          { name: 'read', arguments: { path: 'b.py' } },
        ],
      },
      {
        toolCalls: [
          { name: 'run', arguments: { command: 'make' } },
          { name: 'read', arguments: { path: 'c.py' } },
        ],
      },
      { toolCalls: [{ name: 'wait' }] },
    ]);
    const session = testAgent(fake).factory.create(agentContext());
    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'read', path: 'a.py' });
    await expect(session.next(result('read', true, 'a.py'))).resolves.toEqual({ type: 'read', path: 'b.py' });
    expect(fake.requests).toHaveLength(1);
    await expect(session.next(result('read', true, 'b.py'))).resolves.toEqual({ type: 'run', command: 'make' });
    await expect(session.next(tick(1))).resolves.toEqual({ type: 'wait' });

    const tail = messagesOf(fake, 2).slice(-3);
    expect(tail.map((message) => [message.role, message.tool_call_id])).toEqual([
      ['assistant', undefined],
      ['tool', 'call_2_1'],
      ['tool', 'call_2_2'],
    ]);
    expect(String(tail[2]?.content)).toMatch(/^not run: a monitor report/);
  });

  test('a reply without a tool call gets a nudge; a second one in a row finishes with its text', async () => {
    const fake = await serve([{ content: 'I think it is fixed.' }, { content: 'All done, the pipe is drained now.' }]);
    const session = testAgent(fake).factory.create(agentContext());
    const action = await session.next(taskObservation());
    expect(action).toEqual({
      type: 'finish',
      summary: 'the model stopped calling tools: All done, the pipe is drained now.',
    });
    expect(lastMessage(fake)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('exactly one tool call'),
    });
  });
});

describe('openai agent: background exits are announced', () => {
  test('a notice that came with an observation reaches the model with it', async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
      { toolCalls: [{ name: 'wait' }] },
    ]);
    const { factory } = testAgent(fake);
    const session = factory.create(agentContext());
    await session.next(taskObservation());
    await session.next({
      ...tick(1, {}, factory.tickTemplate),
      notices: ['background command #2 exited with code 0 after 3s'],
    });

    expect(String(lastMessage(fake).content)).toMatch(/\n\[background command #2 exited with code 0 after 3s\]$/);
  });
});

describe('openai agent: malformed tool calls are shown to the model, never a crash', () => {
  test('invalid JSON arguments, an unknown tool and a missing field each get an error tool result with the schema', async () => {
    const fake = await serve([
      { toolCalls: [{ name: 'run', arguments: '{"command": "python3 bu' }] },
      { toolCalls: [{ name: 'shell', arguments: { cmd: 'ls' } }] },
      { toolCalls: [{ name: 'edit', arguments: { path: 'build.py', old: 'x' } }] },
      { toolCalls: [{ name: 'run', arguments: { command: 'python3 build.py' } }] },
    ]);
    const session = testAgent(fake).factory.create(agentContext());
    await expect(session.next(taskObservation())).resolves.toEqual({ type: 'run', command: 'python3 build.py' });

    const errors = [1, 2, 3].map((index) => String(messagesOf(fake, index).at(-1)?.content));
    expect(errors[0]).toMatch(/^error: the arguments of run are not valid JSON/);
    expect(errors[0]).toContain('"required":["command"]');
    expect(errors[1]).toBe(
      'error: unknown tool "shell"; the tools are run, wait, poll, kill, input, read, write, edit, finish',
    );
    expect(errors[2]).toMatch(/^error: invalid arguments for edit: .*new/);
    expect(errors[2]).toContain('expected arguments (JSON Schema)');
  });

  test('five replies in a row with only invalid calls end the attempt with a finish that says so', async () => {
    const fake = await serve(() => ({ toolCalls: [{ name: 'run', arguments: 'not json' }] }));
    const session = testAgent(fake).factory.create(agentContext());
    await expect(session.next(taskObservation())).resolves.toEqual({
      type: 'finish',
      summary: 'gave up: 5 replies in a row had only invalid tool calls',
    });
    expect(fake.requests).toHaveLength(5);
  });
});
