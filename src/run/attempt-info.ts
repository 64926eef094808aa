import { coordinatesOf, type Attempt } from '../attempt/run-attempt.js';
import { caseClass } from '../types/case.js';
import { attemptKey } from '../types/attempt-key.js';
import type { AttemptInfo } from './reporter-hooks.js';

/** What a reporter is told of an attempt (and the key a run orders its results by). */
export function attemptInfo(attempt: Attempt): AttemptInfo {
  const { testCase, variant, repeat } = attempt;
  return {
    attemptId: attemptKey(coordinatesOf(attempt)),
    caseId: testCase.id,
    kind: testCase.kind,
    class: caseClass(testCase),
    variant: variant.name,
    agent: variant.agent.agent,
    repeat,
  };
}
