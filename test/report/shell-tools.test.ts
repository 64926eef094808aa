import { describe, expect, it } from 'vitest';
import { renderShellTools } from '../../src/report/html/shell-tools-section.js';
import { renderShellToolsTable } from '../../src/report/terminal/shell-tools-table.js';
import type { ShellToolRow } from '../../src/summary/schema.js';

const row = (
  mode: string,
  example: string | null,
  agentExit: ShellToolRow['agentExit'] = { exited: 2 },
): ShellToolRow => ({
  cli: 'cli-codex',
  variant: `cli-codex·${mode}`,
  agent: 'cli',
  mode,
  class: 'sleep-forever',
  attempts: 2,
  installed: true,
  returned: 2,
  toolReturnMs: { p50: 10_000, max: 10_200 },
  ends: { 'returned-running': 2 },
  leftAfterTool: 4,
  leftAfterExit: 0,
  heldOutput: 2,
  statedElapsed: 2,
  reasons: ['still running'],
  hangTaxMs: 37_000,
  hangTaxTokens: 3000,
  example,
  toolTimeoutMs: 10_000,
  agentExit,
  agentExitMsMax: agentExit.ended ? 30_400 : null,
});
const rows = [
  row('none', 'Process running with session ID 3\n<b>waiting</b>'),
  row('inband', null, { exited: 1, ended: 1 }),
];

describe('the Shell tools section', () => {
  it('terminal: one row per CLI × class and mode, with how the tool ended the repro and what it left', () => {
    const text = renderShellToolsTable(rows);
    expect(text).toContain('Shell tools');
    expect(text).toMatch(
      /cli-codex\s+sleep-forever\s+none\s+2\s+2\/2 \(10\S*s\)\s+returned-running 2\s+4\s+0\s+exited 2\s/,
    );
    expect(text).toMatch(/inband.*exited 1, ended 1 \(after 30\.4s\)/);
    expect(renderShellToolsTable([{ ...rows[0]!, installed: false }])).toBe('');
  });

  it('report.html: the rows, and the tool result exactly as the CLI sent it, escaped', () => {
    const html = renderShellTools({ shellTools: rows } as never);
    expect(html).toContain('<h2>Shell tools</h2>');
    expect(html).toContain('data-mode="none"');
    expect(html).toContain('data-mode="inband"');
    expect(html).toContain(
      '<pre class="tool-result">Process running with session ID 3\n&lt;b&gt;waiting&lt;/b&gt;</pre>',
    );
    expect(html).toContain('no tool result reached the model');
  });
});
