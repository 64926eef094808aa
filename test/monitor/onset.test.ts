import { describe, expect, it } from 'vitest';
import { createOnsetMatcher } from '../../src/monitor/index.js';

describe('createOnsetMatcher', () => {
  it('matches text split across three chunks', () => {
    const matcher = createOnsetMatcher({ output: 'compiling unit 3' });
    expect(matcher.feed(Buffer.from('ok\ncompil'), 'stdout')).toBeNull();
    expect(matcher.feed(Buffer.from('ing un'), 'stdout')).toBeNull();
    expect(matcher.feed(Buffer.from('it 3\n'), 'stdout')).toBe('output "compiling unit 3" on stdout');
    expect(matcher.fired).toBe(true);
  });

  it('matches text spread over many one-byte chunks', () => {
    const matcher = createOnsetMatcher({ output: 'deadlock' });
    const hits = [...'xx deadlock'].map((char) => matcher.feed(Buffer.from(char), 'stderr'));
    expect(hits.at(-1)).toBe('output "deadlock" on stderr');
  });

  it('matches a prompt that never gets a newline', () => {
    const matcher = createOnsetMatcher({ output: 'Continue? [y/N]' });
    expect(matcher.feed(Buffer.from('Continue? [y/'), 'stdout')).toBeNull();
    expect(matcher.feed(Buffer.from('N] '), 'stdout')).not.toBeNull();
  });

  it('keeps stdout and stderr apart, and fires once', () => {
    const matcher = createOnsetMatcher({ output: 'abcd' });
    expect(matcher.feed(Buffer.from('ab'), 'stdout')).toBeNull();
    expect(matcher.feed(Buffer.from('cd'), 'stderr')).toBeNull();
    expect(matcher.feed(Buffer.from('cd'), 'stdout')).not.toBeNull();
    expect(matcher.feed(Buffer.from('abcd'), 'stdout')).toBeNull();
  });

  it('matches UTF-8 text whose character is split between chunks', () => {
    const matcher = createOnsetMatcher({ output: 'café' });
    const bytes = Buffer.from('le café');
    expect(matcher.feed(bytes.subarray(0, bytes.length - 1), 'stdout')).toBeNull();
    expect(matcher.feed(bytes.subarray(bytes.length - 1), 'stdout')).not.toBeNull();
  });

  it('describes timed onsets and ignores output for them', () => {
    const start = createOnsetMatcher({ start: true });
    expect(start.timedAtMs).toBe(0);
    expect(start.feed(Buffer.from('anything'), 'stdout')).toBeNull();
    expect(start.fireTimed()).toBe('start');
    expect(start.fireTimed()).toBeNull();
    const after = createOnsetMatcher({ after: 2000 });
    expect(after.timedAtMs).toBe(2000);
    expect(after.fireTimed()).toBe('2000ms after start');
    expect(createOnsetMatcher(null).timedAtMs).toBeNull();
  });
});
