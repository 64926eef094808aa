import { describeEndToEnd } from '../support/end-to-end.js';

// The whole library three times (oracle, nop, baseline) at --time-scale 0.1: about 8 minutes on 2 cores, so in the slow
// suite; `npm test` runs the same checks on a spread of the library (test/e2e/eval.test.ts).
describeEndToEnd({ what: 'every case', select: (cases) => [...cases], atLeast: 52, timeoutMs: 900_000 });
