import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProbeSpec } from '../../../src/agents/cli/adapter.js';
import { decide, reproKill, reproPattern } from '../../../src/agents/cli/probe/policy.js';
import { sseData, startProxy, type ProxyHarness } from './proxy-helpers.js';

/** The probe model through the real proxy, in each API: the right tool call per step, read back from the CLI's conversation. */

const KEYS: ProbeSpec = {
  run: { tool: 'exec_command', args: { cmd: '{repro}' } },
  running: 'Process running with session ID (\\d+)',
  poll: {
    tool: 'write_stdin',
    args: { session_id: '{session}', chars: '', yield_time_ms: '{poll_ms}' },
    every: 30_000,
  },
  interrupt: { kind: 'keys', tool: 'write_stdin', args: { session_id: '{session}', chars: '\u0003' } },
  finish: 'it hangs; interrupted.',
  aside: 'a title',
};
const KILL: ProbeSpec = {
  run: { tool: 'bash', args: { command: '{repro}', description: 'run it' } },
  interrupt: { kind: 'kill', tool: 'bash', args: { command: 'pkill -f {repro_pattern}' } },
  finish: 'done.',
  aside: 'a title',
};
const REPRO = 'python3 build.py';
type Exchange = { name: string; args: Record<string, unknown>; result: string };
type Api = 'chat' | 'responses' | 'messages' | 'gemini';

/** A request body of each API: the tools offered and the conversation so far, as the CLIs send them. */
function body(api: Api, tools: string[], exchanges: Exchange[], stream: boolean): object {
  const ask = 'please look at the issue';
  if (api === 'chat') {
    const messages: object[] = [{ role: 'user', content: ask }];
    exchanges.forEach((exchange, i) =>
      messages.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `c${i}`,
              type: 'function',
              function: { name: exchange.name, arguments: JSON.stringify(exchange.args) },
            },
          ],
        },
        { role: 'tool', tool_call_id: `c${i}`, content: exchange.result },
      ),
    );
    return {
      model: 'probe',
      stream,
      messages,
      tools: tools.map((name) => ({ type: 'function', function: { name, parameters: {} } })),
    };
  }
  if (api === 'responses') {
    const input: object[] = [{ role: 'user', content: [{ type: 'input_text', text: ask }] }];
    exchanges.forEach((exchange, i) =>
      input.push(
        { type: 'function_call', call_id: `c${i}`, name: exchange.name, arguments: JSON.stringify(exchange.args) },
        { type: 'function_call_output', call_id: `c${i}`, output: exchange.result },
      ),
    );
    return { model: 'probe', stream, input, tools: tools.map((name) => ({ type: 'function', name, parameters: {} })) };
  }
  if (api === 'messages') {
    const messages: object[] = [{ role: 'user', content: ask }];
    exchanges.forEach((exchange, i) =>
      messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: exchange.name, input: exchange.args }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: [{ type: 'text', text: exchange.result }] }],
        },
      ),
    );
    return {
      model: 'probe',
      stream,
      max_tokens: 1000,
      messages,
      tools: tools.map((name) => ({ name, input_schema: {} })),
    };
  }
  const contents: object[] = [{ role: 'user', parts: [{ text: ask }] }];
  exchanges.forEach((exchange) =>
    contents.push(
      { role: 'model', parts: [{ functionCall: { name: exchange.name, args: exchange.args } }] },
      { role: 'user', parts: [{ functionResponse: { name: exchange.name, response: { output: exchange.result } } }] },
    ),
  );
  return { contents, tools: [{ functionDeclarations: tools.map((name) => ({ name })) }] };
}

function route(api: Api, stream: boolean): string {
  return {
    chat: '/v1/chat/completions',
    responses: '/v1/responses',
    messages: '/v1/messages?beta=true',
    gemini: `/v1beta/models/probe:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  }[api];
}

/** The reply in the API's own answer, JSON or SSE, as a tool call or a text. */
function replyOf(api: Api, text: string, stream: boolean): { call: string; args: unknown } | { text: string } {
  if (api === 'chat') {
    type Chunk = { choices: Array<{ delta: Record<string, unknown> }> };
    type Completion = { choices: Array<{ message: Record<string, unknown> }> };
    const parts = stream
      ? (sseData(text) as Chunk[]).map((chunk) => chunk.choices[0]!.delta)
      : [(JSON.parse(text) as Completion).choices[0]!.message];
    const call = parts.flatMap(
      (part) => (part.tool_calls as Array<{ function: { name: string; arguments: string } }> | undefined) ?? [],
    )[0];
    return call
      ? { call: call.function.name, args: JSON.parse(call.function.arguments) }
      : { text: parts.map((part) => part.content ?? '').join('') };
  }
  if (api === 'responses') {
    const done = stream
      ? (sseData(text) as Array<{ type: string; response?: { output: Array<Record<string, unknown>> } }>).find(
          (event) => event.type === 'response.completed',
        )!.response!
      : (JSON.parse(text) as { output: Array<Record<string, unknown>> });
    const item = done.output[0]!;
    return item.type === 'function_call'
      ? { call: String(item.name), args: JSON.parse(String(item.arguments)) }
      : { text: (item.content as Array<{ text: string }>)[0]!.text };
  }
  if (api === 'messages') {
    if (!stream) {
      const block = (JSON.parse(text) as { content: Array<Record<string, unknown>> }).content[0]!;
      return block.type === 'tool_use' ? { call: String(block.name), args: block.input } : { text: String(block.text) };
    }
    const events = sseData(text) as Array<Record<string, Record<string, unknown>>>;
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = events[1]!.content_block!;
    const delta = events[2]!.delta!;
    return start.type === 'tool_use'
      ? { call: String(start.name), args: JSON.parse(String(delta.partial_json)) }
      : { text: String(delta.text) };
  }
  const answer = (stream ? sseData(text)[0] : JSON.parse(text)) as {
    candidates: Array<{ content: { parts: Array<Record<string, Record<string, unknown>>> } }>;
  };
  const part = answer.candidates[0]!.content.parts[0]!;
  return part.functionCall
    ? { call: String(part.functionCall.name), args: part.functionCall.args }
    : { text: String(part.text) };
}

const headers = (api: Api, key: string): Record<string, string> =>
  api === 'messages'
    ? { 'x-api-key': key }
    : api === 'gemini'
      ? { 'x-goog-api-key': key }
      : { authorization: `Bearer ${key}` };

let harness: ProxyHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe.each(['chat', 'responses', 'messages', 'gemini'] as const)('the probe model in %s', (api) => {
  it.each([false, true])(
    'keys: run, poll while running, ctrl-c into the session, finish (stream %s)',
    async (stream) => {
      harness = await startProxy({ upstream: null, probe: { spec: KEYS, repro: REPRO, waitMs: 20_000 } });
      const ask = async (exchanges: Exchange[], tools = ['exec_command', 'write_stdin']) => {
        const answer = await harness!.post(
          route(api, stream),
          body(api, tools, exchanges, stream),
          headers(api, harness!.proxy.agentKey),
        );
        expect(answer.status).toBe(200);
        expect(answer.type).toBe(stream ? 'text/event-stream' : 'application/json');
        return replyOf(api, answer.text, stream);
      };
      const run = {
        name: 'exec_command',
        args: { cmd: REPRO },
        result: 'Chunk ID: 1\nProcess running with session ID 7\nOutput:\ncompiling unit 3',
      };
      const poll = {
        name: 'write_stdin',
        args: { session_id: 7, chars: '' },
        result: 'Process running with session ID 7\nOutput:\n',
      };
      expect(await ask([])).toEqual({ call: 'exec_command', args: { cmd: REPRO } });
      expect(await ask([run])).toEqual({
        call: 'write_stdin',
        args: { session_id: 7, chars: '', yield_time_ms: 20_000 },
      });
      expect(await ask([run, poll])).toEqual({ call: 'write_stdin', args: { session_id: 7, chars: '\u0003' } });
      expect(await ask([run, poll, { ...poll, result: 'Process exited with code 130' }])).toEqual({
        text: 'it hangs; interrupted.',
      });
      expect(await ask([], ['other_tool'])).toEqual({ text: 'a title' });
      expect(harness.seen.responses.map((response) => response.probe?.step)).toEqual([
        'run',
        'poll',
        'interrupt',
        'finish',
        'aside',
      ]);
      expect(
        harness.seen.responses.every(
          (response) => response.tokensFrom === 'counted' && response.usage.promptTokens > 0,
        ),
      ).toBe(true);
      expect(harness.proxy.tokens).toBeGreaterThan(0);
    },
  );

  it('kill: run, then pkill what is left through another shell call, then finish', async () => {
    harness = await startProxy({ upstream: null, probe: { spec: KILL, repro: REPRO, waitMs: 20_000 } });
    const ask = async (exchanges: Exchange[]) =>
      replyOf(
        api,
        (
          await harness!.post(
            route(api, true),
            body(api, ['bash', 'read'], exchanges, true),
            headers(api, harness!.proxy.agentKey),
          )
        ).text,
        true,
      );
    const run = {
      name: 'bash',
      args: { command: REPRO },
      result:
        'compiling unit 3\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 120000 ms\n</bash_metadata>',
    };
    expect(await ask([])).toEqual({ call: 'bash', args: { command: REPRO, description: 'run it' } });
    expect(await ask([run])).toEqual({ call: 'bash', args: { command: "pkill -f '[p]ython3 build\\.py'" } });
    expect(await ask([run, { name: 'bash', args: {}, result: '' }])).toEqual({ text: 'done.' });
  });

  it("past the token budget it refuses in the API's own shape, as the forwarding proxy does", async () => {
    harness = await startProxy({ upstream: null, tokenBudget: 1, probe: { spec: KILL, repro: REPRO, waitMs: 1000 } });
    const key = headers(api, harness.proxy.agentKey);
    expect((await harness.post(route(api, false), body(api, ['bash'], [], false), key)).status).toBe(200);
    const refused = await harness.post(route(api, false), body(api, ['bash'], [], false), key);
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/token budget of 1 is spent/);
    expect(harness.seen.over).toHaveLength(1);
  });
});

describe('the probe policy', () => {
  it('polls as often as the wait allows, at most `every` each, then interrupts', () => {
    const run = { id: null, name: 'exec_command', args: {}, result: 'Process running with session ID 3' };
    const steps = [0, 1, 2, 3].map((polls) =>
      decide(KEYS, ['exec_command'], [run, ...Array.from({ length: polls }, () => run)], {
        repro: REPRO,
        waitMs: 75_000,
      }),
    );
    expect(steps.map((step) => step.step)).toEqual(['poll', 'poll', 'poll', 'interrupt']);
    expect(steps[0]!.reply).toEqual({ call: 'write_stdin', args: { session_id: 3, chars: '', yield_time_ms: 30_000 } });
    expect(steps[2]!.reason).toMatch(/poll 3 of 3/);
  });

  it('keys with nothing running: the command ended inside the tool, so it finishes', () => {
    const decision = decide(
      KEYS,
      ['exec_command'],
      [{ id: null, name: 'exec_command', args: {}, result: 'Process exited with code 0' }],
      { repro: REPRO, waitMs: 10_000 },
    );
    expect(decision.step).toBe('finish');
  });

  it('stop: a still-running result is polled on its shell id, then stopped through the stop tool; an ended one is not', () => {
    const stop: ProbeSpec = {
      run: { tool: 'bash', args: { command: '{repro}', description: 'run it' } },
      running: '<command with shellId: ([\\w-]+) is still running',
      poll: { tool: 'read_bash', args: { shellId: '{session}', delay: '{poll_s}' }, every: 30_000 },
      interrupt: { kind: 'stop', tool: 'stop_bash', args: { shellId: '{session}' } },
      finish: 'done.',
      aside: 'a title',
    };
    const context = { repro: REPRO, waitMs: 20_000 };
    const yielded = (seconds: number) => ({
      id: null,
      name: seconds === 30 ? 'bash' : 'read_bash',
      args: {},
      result: `compiling\n<command with shellId: 4 is still running after ${seconds} seconds. Use stop_bash to stop it.>`,
    });
    const run = decide(stop, ['bash', 'read_bash', 'stop_bash'], [], context);
    const poll = decide(stop, ['bash'], [yielded(30)], context);
    const interrupt = decide(stop, ['bash'], [yielded(30), yielded(20)], context);
    const after = { id: null, name: 'stop_bash', args: {}, result: '<command with id: 4 stopped>' };
    const finish = decide(stop, ['bash'], [yielded(30), yielded(20), after], context);
    expect([run, poll, interrupt, finish].map((decision) => decision.step)).toEqual([
      'run',
      'poll',
      'interrupt',
      'finish',
    ]);
    expect(poll.reply).toEqual({ call: 'read_bash', args: { shellId: 4, delay: 20 } });
    expect(interrupt.reply).toEqual({ call: 'stop_bash', args: { shellId: 4 } });
    expect(interrupt.reason).toMatch(/interrupt \(stop\)/);
    const ended = decide(stop, ['bash'], [{ id: null, name: 'bash', args: {}, result: 'all steps done' }], context);
    expect(ended).toMatchObject({ step: 'finish', reply: { text: 'done.' } });
    expect(ended.reason).toMatch(/nothing to stop/);
  });

  it("the pkill pattern matches the repro's processes but not the shell running the pkill", async () => {
    const repro = 'sleep 987.25';
    const target = spawn('bash', ['-c', `exec ${repro}`], { stdio: 'ignore' });
    try {
      await expect
        .poll(async () =>
          (await promisify(execFile)('pgrep', ['-f', 'sleep 987.25']).catch(() => ({ stdout: '' }))).stdout.trim(),
        )
        .toBe(String(target.pid));
      const { stdout } = await promisify(execFile)('bash', ['-c', `pgrep -f ${reproPattern(repro)}; echo "self $$"`]);
      const [found, self] = stdout.trim().split('\n');
      expect(found).toBe(String(target.pid));
      expect(self).toMatch(/^self \d+$/);
    } finally {
      target.kill('SIGKILL');
    }
    expect(reproPattern("./deploy.sh --name 'x'")).toBe(`'\\./[d]eploy\\.sh --name '\\''x'\\'''`);
  });

  it('the kill ends the repro and spares an ancestor whose command line holds the repro (a CLI given the issue as argv)', async () => {
    const repro = 'sleep 987.5';
    const target = spawn('bash', ['-c', `exec ${repro}`], { stdio: 'ignore' });
    const targetGone = new Promise((resolve) => target.once('exit', (_code, signal) => resolve(signal)));
    try {
      await expect
        .poll(async () =>
          (await promisify(execFile)('pgrep', ['-f', 'sleep 987.5']).catch(() => ({ stdout: '' }))).stdout.trim(),
        )
        .toBe(String(target.pid));
      // The "CLI": a bash whose argv has the repro's text, running the kill as its tool would (bash -c in a child).
      const cli = `: "the issue: ${repro} never ends"; bash -c '${reproKill(repro).replaceAll("'", `'\\''`)}'; echo "cli alive $?"`;
      const { stdout } = await promisify(execFile)('bash', ['-c', cli]);
      expect(stdout).toBe('ended 1 process(es)\ncli alive 0\n');
      expect(await targetGone).toBe('SIGTERM');
      const nothing = await promisify(execFile)('bash', ['-c', reproKill(repro)]).catch(
        (error: { code: number; stdout: string }) => error,
      );
      expect(nothing).toMatchObject({ code: 1, stdout: 'ended 0 process(es)\n' });
    } finally {
      target.kill('SIGKILL');
    }
  });
});
