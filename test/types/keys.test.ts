import { describe, expect, it } from 'vitest';
import { ActionSchema, keyBytes } from '../../src/types/actions.js';

describe('input keys', () => {
  it('maps named keys to what a terminal sends', () => {
    const pty = { terminal: 'pty' } as const;
    expect(
      ['enter', 'tab', 'escape', 'backspace', 'ctrl-c', 'ctrl-d', 'ctrl-z', 'q', 'é'].map((key) => keyBytes(key, pty)),
    ).toEqual(['\r', '\t', '\x1b', '\x7f', '\x03', '\x04', '\x1a', 'q', 'é']);
    expect(['up', 'down', 'right', 'left', 'pageup', 'delete'].map((key) => keyBytes(key, pty))).toEqual([
      '\x1b[A',
      '\x1b[B',
      '\x1b[C',
      '\x1b[D',
      '\x1b[5~',
      '\x1b[3~',
    ]);
  });

  it('sends arrows as ESC O x in application cursor mode, and Enter as a newline on a pipe', () => {
    expect(keyBytes('up', { terminal: 'pty', applicationCursor: true })).toBe('\x1bOA');
    expect(keyBytes('pageup', { terminal: 'pty', applicationCursor: true })).toBe('\x1b[5~');
    expect(keyBytes('enter', { terminal: 'pipe' })).toBe('\n');
  });

  it('accepts keys in the input action and names the valid ones for an unknown key', () => {
    expect(ActionSchema.parse({ type: 'input', keys: ['down', 'enter'] })).toEqual({
      type: 'input',
      keys: ['down', 'enter'],
    });
    const result = ActionSchema.safeParse({ type: 'input', keys: ['enterr'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(
      /unknown key "enterr"; use one of enter, tab, .*ctrl-a … ctrl-z, any single character/,
    );
  });
});
