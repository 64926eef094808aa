import { DEFAULTS } from '../defaults.js';
import { pullsStatus } from '../modes/index.js';
import { looksHung } from '../types/process.js';
import type { Action } from '../types/actions.js';
import type { LoopAgentFactory, Observation } from './protocol.js';

/**
 * No model: runs the repro and kills it once the monitor has called it hung for `hungTicks` consecutive
 * ticks; otherwise waits. Never edits, so it measures the monitor, not fixing. It decides from whatever the mode
 * gives it: pushed ticks, the status it polls for (`poll`), or nothing at all (`timeout`, `wait-pid`: it can only wait).
 */
export function baselineAgent(hungTicks: number): LoopAgentFactory {
  return {
    name: 'baseline',
    create(context) {
      let started = false;
      let hungStreak = 0;
      const polling = pullsStatus(context.monitor);
      const pollSeconds = (DEFAULTS.pollEveryMs * context.timeScale) / 1000;
      const keepWaiting = (): Action => (polling ? { type: 'wait', timeout: pollSeconds } : { type: 'wait' });
      return {
        async next(observation: Observation): Promise<Action> {
          if (observation.type === 'task' && !started) {
            started = true;
            return { type: 'run', command: context.testCase.repro };
          }
          if (observation.type === 'tick') {
            hungStreak = looksHung(observation.tick.classification) ? hungStreak + 1 : 0;
            return hungStreak >= hungTicks ? { type: 'kill' } : keepWaiting();
          }
          if (observation.type === 'result' && observation.action === 'run' && observation.ok) return keepWaiting();
          return {
            type: 'finish',
            summary: observation.type === 'exit' && observation.kill ? 'killed the hung command' : 'command finished',
          };
        },
      };
    },
  };
}
