// What each installed agent's own shell tool does to a hung command: the real CLI in the sandbox, a scripted model that
// runs the repro and then waits (Codex: polls the session with write_stdin; opencode: no timeout argument), on a
// sleep-forever case and a pipe-deadlock case. Run: npm run build && node bench/installed-agents.mjs (minutes: the
// tools' own timeouts). Prints the README's adapter table rows.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runEval } from '../dist/run/run-eval.js';
import { readTrace } from '../dist/scorers/index.js';

const REPO = path.resolve(import.meta.dirname, '..');
const CASES = [path.join(REPO, 'test/fixtures/installed/sleep-forever.yaml'), path.join(REPO, 'cases/py-pipe-deadlock.yaml')];
const usage = { input_tokens: 100, output_tokens: 10, total_tokens: 110 };

/** Responses API for codex, chat completions for opencode; `script(n, body)` answers the nth call. */
function scriptedModel(script) {
  let n = 0;
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text || '{}');
      const first = body.messages?.[0]?.content;
      const title = typeof first === 'string' && first.startsWith('You are a title generator');
      const reply = title ? { text: 'title' } : script(++n, body);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if ((request.url ?? '').endsWith('/responses')) {
        const item = reply.call
          ? { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: reply.call, arguments: JSON.stringify(reply.args), status: 'completed' }
          : { type: 'message', id: `m_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
        response.write(`event: response.output_item.done\ndata: ${JSON.stringify({ type: 'response.output_item.done', output_index: 0, item })}\n\n`);
        response.end(`event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { id: `r${n}`, status: 'completed', output: [item], usage } })}\n\n`);
      } else {
        const delta = reply.call ? { role: 'assistant', tool_calls: [{ index: 0, id: `call_${n}`, type: 'function', function: { name: reply.call, arguments: JSON.stringify(reply.args) } }] } : { role: 'assistant', content: reply.text };
        response.write(`data: ${JSON.stringify({ id: `c${n}`, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
        response.write(`data: ${JSON.stringify({ id: `c${n}`, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: reply.call ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 10 } })}\n\n`);
        response.end('data: [DONE]\n\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const lastOutput = (body) => JSON.stringify(body.input ?? body.messages ?? '').match(/session ID (\d+)/g)?.at(-1)?.split(' ').at(-1);
const SCRIPTS = {
  codex: (repro) => (n, body) => (n === 1 ? { call: 'exec_command', args: { cmd: repro } } : n === 2 ? { call: 'write_stdin', args: { session_id: Number(lastOutput(body)), chars: '' } } : { text: 'it hangs.' }),
  opencode: (repro) => (n) => (n === 1 ? { call: 'bash', args: { command: repro, description: 'run it' } } : { text: 'it hangs.' }),
};

const out = await mkdtemp(path.join(tmpdir(), 'hangbench-adapters-'));
const rows = [];
for (const adapter of (process.env.ADAPTERS ?? 'codex,opencode').split(',')) {
  for (const caseFile of CASES) {
    const repro = caseFile.includes('pipe-deadlock') ? 'python3 build.py' : 'bash serve.sh';
    const server = await scriptedModel(SCRIPTS[adapter](repro));
    const result = await runEval({ caseInputs: [caseFile], agent: `cli:${adapter}`, model: 'scripted', baseUrl: `http://127.0.0.1:${server.address().port}/v1`, mode: 'none', intervalMs: 5000, concurrency: 1, out, runId: `${adapter}-${path.basename(caseFile, '.yaml')}`, cwd: REPO, budgets: { wallMs: 600_000, interruptMs: 600_000 } });
    server.close();
    const scores = result.summary.attempts[0];
    const events = await readTrace(path.join(result.runDir, scores.caseId, scores.variant, '1', 'trace.jsonl'));
    /** @type {any} */
    const start = events.find((event) => event.type === 'command.start' && event.isRepro);
    /** @type {any} */
    const exit = events.find((event) => event.type === 'command.exit' && event.commandId === start?.commandId);
    /** @type {any} */
    const kill = events.find((event) => event.type === 'kill' && event.commandId === start?.commandId);
    /** @type {any} */
    const onset = events.find((event) => event.type === 'onset' && event.commandId === start?.commandId);
    const notes = events.filter((event) => event.type === 'agent.note').map((event) => event.message);
    rows.push({ adapter, case: scores.caseId, onset: onset ? ((onset.t - start.t) / 1000).toFixed(1) : '–', ended: exit ? ((exit.t - start.t) / 1000).toFixed(1) : '–', by: kill?.by ?? (exit ? 'exit' : '–'), signal: exit?.signal ?? exit?.exitCode ?? '–', cli: notes.at(-1) ?? '', interrupted: scores.scores.interrupted });
    console.log(JSON.stringify(rows.at(-1)));
  }
}
console.log('\n| adapter | case | onset (s after start) | repro ended (s after start) | ended by | signal / code | the CLI |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.adapter} | ${row.case} | ${row.onset} | ${row.ended} | ${row.by} | ${row.signal} | ${row.cli} |`);
await rm(out, { recursive: true, force: true });
