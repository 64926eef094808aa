import { describe, expect, it } from 'vitest';
import { stripTerminalControls } from '../../src/monitor/output/terminal-text.js';
import { foldLines } from '../../src/monitor/output/fold-lines.js';
import { CursorKeyMode } from '../../src/monitor/output/cursor-keys.js';

describe('stripTerminalControls', () => {
  it('leaves plain pipe output alone', () => {
    expect(stripTerminalControls('a\tb\nc\rd\n')).toBe('a\tb\nc\rd\n');
  });

  it('drops colours, modes, charset and keypad switches, and makes \\r\\n a newline', () => {
    const less = '\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b=\r1\r\n2\r\n\x1b[7mlong.txt\x1b[27m\x1b[K';
    expect(stripTerminalControls(less)).toBe('\r1\n2\nlong.txt');
    expect(stripTerminalControls('\x1b(B\x1b[m\x1b]0;title\x07ok\x0f\x07\n')).toBe('ok\n');
  });

  it('turns a jump to a row into a new line, so a full-screen program reads as lines', () => {
    const vim = '\x1b[1;1Hfixed\x1b[2;1H~     \x1b[3;1H~     \x1b[24;63H1,0-1\x1b[9CAll';
    expect(stripTerminalControls(vim)).toBe('\nfixed\n~     \n~     \n1,0-1All');
  });

  it('applies backspaces and drops an escape cut off at the end', () => {
    expect(stripTerminalControls('N\x08NAME x\x1b')).toBe('NAME x');
  });

  it('folds a redrawn screen like any other repeated lines', () => {
    expect(foldLines('\x1b[2;1H~\x1b[3;1H~\x1b[4;1H~\x1b[5;1H~\r\n').text).toBe(
      '\n~\n… (line repeated 3 more times)\n',
    );
  });
});

describe('CursorKeyMode', () => {
  it('follows DECCKM set and reset, also split across chunks', () => {
    const mode = new CursorKeyMode();
    mode.feed(Buffer.from('\x1b[?1049h\x1b['));
    expect(mode.application).toBe(false);
    mode.feed(Buffer.from('?1h\x1b='));
    expect(mode.application).toBe(true);
    mode.feed(Buffer.from('text \x1b[?1l\x1b>'));
    expect(mode.application).toBe(false);
  });
});
