import { describe, expect, it } from 'vitest';
import { describeToolResult } from '../../src/scorers/tool-result-text.js';

/**
 * Tool results as each bundled CLI sent them in the recorded shell-tool matrix (docs/measurements/shell-tools.json,
 * summary.shellTools[].example), with the lines the repro printed before: the reason comes from the tool's own framing
 * and fields, never from the command's output.
 */
const E2E_OUTPUT = 'e2e: seeding the store in the background\ne2e: waiting for the store to be ready\n';
const NPX_OUTPUT =
  'gen-api: generating types from spec/openapi.json\nNeed to install the following packages:\n  openapi-typegen@2.1.0\nOk to proceed? (y) \nnpm error canceled\n';

const reason = (text: string, output = '') => describeToolResult(text, output).reason;

describe('the reason a tool result gives, per CLI', () => {
  it('codex: a session still running, an exit code; not the words of the output', () => {
    expect(
      reason(
        `Chunk ID: 067154\nWall time: 10.0015 seconds\nProcess running with session ID 18105\nOriginal token count: 20\nOutput:\n${E2E_OUTPUT}`,
        E2E_OUTPUT,
      ),
    ).toBe('still running');
    expect(
      reason(
        `Chunk ID: 536a93\nWall time: 0.0547 seconds\nProcess exited with code 1\nOriginal token count: 38\nOutput:\n${NPX_OUTPUT}`,
        NPX_OUTPUT,
      ),
    ).toBe('exit code');
  });

  it("gemini: its Signal field, not its 'Background PIDs' line; its exit code, not npm's 'canceled'", () => {
    const killed = JSON.stringify({
      output:
        '<untrusted_context>\nOutput: health check ok (4 ms)\nTerminated\nSignal: 15\nBackground PIDs: 44\nProcess Group PGID: 38\n</untrusted_context>',
    });
    expect(describeToolResult(killed, 'health check ok (4 ms)\n')).toMatchObject({
      reason: 'killed',
      elapsed_ms: null,
    });
    const exited = JSON.stringify({
      output: `<untrusted_context>\nOutput: ${NPX_OUTPUT}Exit Code: 1\nProcess Group PGID: 38\n</untrusted_context>`,
    });
    expect(reason(exited, NPX_OUTPUT)).toBe('exit code');
    expect(
      reason(
        JSON.stringify({
          output:
            '<untrusted_context>\nCommand was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. Below is the output before it was cancelled:\nwaiting\nTerminated\n</untrusted_context>',
        }),
        'waiting\n',
      ),
    ).toBe('timeout');
  });

  it("qwen: its Signal field, its timeout sentence; 'Signal: (none)' says nothing", () => {
    expect(
      reason(
        `Command: bash scripts/e2e.sh\nDirectory: (root)\nOutput: ${E2E_OUTPUT}Terminated\nError: (none)\nExit Code: (none)\nSignal: 15\nProcess Group PGID: (none)`,
        E2E_OUTPUT,
      ),
    ).toBe('killed');
    expect(
      reason(
        'Command timed out after 120000ms before it could complete. Below is the output before it timed out:\nloaded 2400 events\nTerminated',
        'loaded 2400 events\n',
      ),
    ).toBe('timeout');
    expect(
      reason(
        'Command: bash scripts/run-job.sh reindex\nDirectory: (root)\nOutput: run-job: starting reindex\nrun-job: reindex exited 0\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)',
        'run-job: starting reindex\nrun-job: reindex exited 0\n',
      ),
    ).toBe('exit code');
  });

  it('claude: moved to the background at its timeout, an exit code', () => {
    expect(
      reason(
        'loaded 2400 events\nCommand did not complete within its 120s timeout and was moved to the background (ID: bcat8v3j0). Output is being written to: /tmp/x',
        'loaded 2400 events\n',
      ),
    ).toBe('timeout');
    expect(reason(`Exit code 1\n${NPX_OUTPUT}`, NPX_OUTPUT)).toBe('exit code');
  });

  it("cline: its error field; the command's own output in result says nothing", () => {
    expect(
      reason(
        '[{"query":"bash scripts/e2e.sh","result":"","error":"Command failed: Command timed out after 30000ms","success":false}]',
        E2E_OUTPUT,
      ),
    ).toBe('timeout');
    expect(
      reason(JSON.stringify([{ query: 'bash scripts/e2e.sh', result: `${E2E_OUTPUT}`, success: true }]), E2E_OUTPUT),
    ).toBeNull();
    expect(
      reason(
        JSON.stringify([
          {
            query: 'bash scripts/gen-api.sh',
            result: `[Command exited with code 1]\n${NPX_OUTPUT}`,
            error: 'Command exited with code 1',
            success: false,
          },
        ]),
        NPX_OUTPUT,
      ),
    ).toBe('exit code');
  });

  it('pi and opencode: the exit line pi adds; a bare output gives none', () => {
    expect(reason(`${NPX_OUTPUT}\n\nCommand exited with code 1`, NPX_OUTPUT)).toBe('exit code');
    expect(
      reason(
        'warming the geo prefix table in the background\nTerminated\n',
        'warming the geo prefix table in the background\n',
      ),
    ).toBe('killed');
    expect(reason(NPX_OUTPUT, NPX_OUTPUT)).toBeNull();
  });
});
