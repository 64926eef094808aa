import { describe, expect, it } from 'vitest';
import { OutputWindow } from '../../src/monitor/index.js';

const push = (window: OutputWindow, ...chunks: string[]): void => {
  for (const chunk of chunks) window.push(Buffer.from(chunk));
};

describe('OutputWindow', () => {
  it('keeps small output whole and resets after each take', () => {
    const window = new OutputWindow({ headBytes: 64, tailBytes: 64 });
    push(window, 'hello\n', 'world\n');
    expect(window.take()).toMatchObject({
      text: 'hello\nworld\n',
      bytes: 12,
      cutBytes: 0,
      partialLine: false,
      lastLine: '',
    });
    expect(window.take()).toMatchObject({ text: '', bytes: 0 });
  });

  it('keeps head and tail of a large burst with a marker counting the cut bytes', () => {
    const window = new OutputWindow({ headBytes: 16, tailBytes: 16 });
    const lines = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')}\n`);
    for (const line of lines) push(window, line);
    const out = window.take();
    const total = lines.join('').length;
    expect(out.bytes).toBe(total);
    expect(out.cutBytes).toBe(total - 32);
    expect(out.text.startsWith('line 000\nline 00')).toBe(true);
    expect(out.text).toContain(`… [${total - 32} bytes cut] …`);
    expect(out.text.endsWith('\nne 098\nline 099\n')).toBe(true);
  });

  it('folds identical consecutive lines when rendering', () => {
    const window = new OutputWindow({ headBytes: 4096, tailBytes: 4096 });
    push(window, 'start\n', ...Array.from({ length: 42 }, () => 'retrying...\n'), 'x\n', 'x\n', 'end\n');
    const out = window.take();
    expect(out.text).toBe('start\nretrying...\n… (line repeated 41 more times)\nx\nx\nend\n');
    expect(out.foldedLines).toBe(41);
  });

  it('includes the unfinished last line (a prompt) and flags it, even split across chunks', () => {
    const window = new OutputWindow();
    push(window, 'This will overwrite 3 files.\nCont', 'inue? [y/N] ');
    const out = window.take();
    expect(out.text).toBe('This will overwrite 3 files.\nContinue? [y/N] ');
    expect(out.partialLine).toBe(true);
    expect(out.lastLine).toBe('Continue? [y/N] ');
  });

  it('repeats a pending prompt on a tick without new output, with zero bytes', () => {
    const window = new OutputWindow();
    push(window, 'Password: ');
    window.take();
    expect(window.take()).toMatchObject({ text: 'Password: ', bytes: 0, partialLine: true, lastLine: 'Password: ' });
    push(window, 'hunter2\n');
    expect(window.take()).toMatchObject({ partialLine: false, lastLine: '' });
  });

  it('shows a carriage-return progress bar as its last state', () => {
    const window = new OutputWindow();
    push(window, 'downloading [#    ] 20%\r', 'downloading [##   ] 40%\r', 'downloading [###  ] 60%');
    const out = window.take();
    expect(out.text).toBe('downloading [###  ] 60%');
    expect(out.bytes).toBe(71);
  });

  it('does not split a multi-byte character at a cut', () => {
    const window = new OutputWindow({ headBytes: 5, tailBytes: 5 });
    push(window, 'ééééééééééé');
    expect(window.take().text).not.toContain('\uFFFD');
  });
});
