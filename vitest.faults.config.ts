import { sequentialSuite } from './vitest.sequential.js';

/** The fault-injection suite (`npm run test:faults`): the harness's own faults, real mounts and signals. */
export default sequentialSuite(['test/faults/**/*.test.ts']);
