import { describeEndToEnd } from '../support/end-to-end.js';

// A spread of the library: every fourth case in file order (hangs and controls of most classes). The whole library,
// three times, is the slow suite's (test/hostile-slow/eval-library.test.ts, about 8 minutes on 2 cores).
describeEndToEnd({
  what: 'a spread of the library',
  select: (cases) => cases.filter((_testCase, index) => index % 4 === 0),
  atLeast: 13,
  timeoutMs: 600_000,
});
