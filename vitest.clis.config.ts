import { INSTALLED_CLI_TESTS } from './vitest.config.js';
import { sequentialSuite } from './vitest.sequential.js';

/**
 * The real agent CLIs from the registry (`npm run test:clis`, after `node scripts/install-agents.mjs`): each test starts
 * a pinned CLI in the sandbox against a loopback model server, seconds of start-up CPU apiece, so outside `npm test`,
 * whose timings they would otherwise starve.
 */
export default sequentialSuite(INSTALLED_CLI_TESTS);
