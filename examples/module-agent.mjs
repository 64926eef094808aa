// An agent as a module, for `hangbench eval --agent ./module-agent.mjs` (docs/api.md). It runs in-process with the
// same observations and actions as every other agent. This one solves the example case that `hangbench init` writes
// (example-confirm-prompt): run the repro, kill it at the first tick after the prompt, teach release.mjs --yes, finish.
// A real agent would ask its model what to do with each observation, and report the tokens with context.reporter.
import { defineAgent } from 'hangbench';

export default defineAgent({
  name: 'example-solver',
  create(context) {
    let step = 'reproduce';
    return {
      next(observation) {
        if (observation.type === 'task') return { type: 'run', command: observation.repro };
        if (
          step === 'reproduce' &&
          observation.type === 'tick' &&
          observation.tick.classification === 'blocked-on-stdin'
        ) {
          step = 'fix';
          return { type: 'kill' };
        }
        if (step === 'fix' && (observation.type === 'exit' || observation.type === 'result')) {
          step = 'done';
          return {
            type: 'edit',
            path: 'release.mjs',
            old: "process.argv.includes('-y')",
            new: "(process.argv.includes('-y') || process.argv.includes('--yes'))",
          };
        }
        if (step === 'done')
          return { type: 'finish', summary: `release.mjs now accepts --yes (case ${context.caseId})` };
        return { type: 'wait' };
      },
    };
  },
});
