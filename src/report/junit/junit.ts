import { formatDuration } from '../../types/duration.js';
import type { AttemptScores } from '../../types/scores.js';
import { missedScores } from '../../scorers/index.js';

export interface JunitAttempt {
  readonly scores: AttemptScores;
  /** the trace's error messages, for an ERROR attempt. */
  readonly errors?: readonly string[];
}

// XML 1.0 allows no control characters but tab, LF and CR, even escaped.
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const xml = (text: string): string =>
  text
    .replace(FORBIDDEN, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** Every score of an attempt that failed, and why, one per line. */
function failedScores(scores: AttemptScores): string[] {
  const s = scores.scores;
  const lines = missedScores(scores);
  if (!s.clean) lines.push('not clean: processes were left running after the attempt');
  if (scores.outcome === 'limit') lines.push('stopped by a budget limit');
  if (s.interrupt_latency !== null) lines.push(`interrupt latency ${formatDuration(s.interrupt_latency)}`);
  return lines;
}

function testcase({ scores, errors = [] }: JunitAttempt): string {
  const open = `    <testcase classname="${xml(`${scores.variant}.${scores.class}`)}" name="${xml(`${scores.caseId} #${scores.repeat}`)}" time="${seconds(scores.wallMs)}"`;
  if (scores.outcome === 'error') {
    const message = errors.length > 0 ? errors.join('; ') : 'the harness or the endpoint broke (not an agent failure)';
    return `${open}>\n      <error message="${xml(message)}" type="error">${xml(errors.join('\n'))}</error>\n    </testcase>`;
  }
  if (scores.scores.solved) return `${open}/>`;
  const lines = failedScores(scores);
  const message = lines.filter((line) => !line.startsWith('interrupt latency')).join(', ') || 'not solved';
  return `${open}>\n      <failure message="${xml(message)}" type="${xml(scores.kind)}">${xml(`${lines.join('\n')}\nscores: ${JSON.stringify(scores.scores)}`)}</failure>\n    </testcase>`;
}

/** junit.xml: a test suite per variant, a test case per attempt; FAIL as <failure>, ERROR as <error>. */
export function renderJunit(runId: string, attempts: readonly JunitAttempt[]): string {
  const variants = [...new Set(attempts.map((attempt) => attempt.scores.variant))];
  const count = (list: readonly JunitAttempt[]) => ({
    tests: list.length,
    failures: list.filter((a) => a.scores.outcome !== 'error' && !a.scores.scores.solved).length,
    errors: list.filter((a) => a.scores.outcome === 'error').length,
    time: seconds(list.reduce((sum, a) => sum + a.scores.wallMs, 0)),
  });
  const all = count(attempts);
  const suites = variants.map((variant) => {
    const list = attempts.filter((attempt) => attempt.scores.variant === variant);
    const c = count(list);
    return `  <testsuite name="${xml(variant)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="0" time="${c.time}">\n${list.map(testcase).join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`hangbench ${runId}`)}" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" time="${all.time}">\n${suites.join('\n')}\n</testsuites>\n`;
}
