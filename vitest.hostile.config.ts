import { sequentialSuite } from './vitest.sequential.js';

/** The slow hostile suite (`npm run test:hostile`). */
export default sequentialSuite(['test/hostile-slow/**/*.test.ts']);
