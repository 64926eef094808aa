import { pullsStatus } from '../modes/index.js';
import type { Action } from '../types/actions.js';
import type { LoopAgentFactory, Observation, OracleView } from './protocol.js';

type Phase = 'start' | 'repro' | 'patch' | 'rerun' | 'done';

/**
 * Scripted from the case's ground truth: run the repro, kill it at the first tick after onset,
 * write solution.patch's files, re-run the repro to its exit, finish. Controls: let the repro finish, then patch.
 * It must score 100 %; if it does not, the case (not an agent) is broken.
 */
export const oracleAgent: LoopAgentFactory = {
  name: 'oracle',
  privileged: true,
  create(context) {
    const oracle = context.oracle;
    if (!oracle) throw new Error('the oracle agent needs the privileged oracle view');
    const repro = context.testCase.repro;
    let phase: Phase = 'start';
    let pendingWrites: Action[] = [];
    // In poll mode nothing is pushed: the oracle asks for the status every second (scaled) until the onset.
    const polling = pullsStatus(context.monitor);
    const keepWaiting = (): Action => (polling ? { type: 'wait', timeout: context.timeScale } : { type: 'wait' });

    const nextWrite = (): Action => {
      const write = pendingWrites.shift();
      if (write) return write;
      phase = 'rerun';
      return { type: 'run', command: repro };
    };
    const startPatching = async (): Promise<Action> => {
      phase = 'patch';
      pendingWrites = (await oracle.patchedFiles()).map((file) => ({
        type: 'write',
        path: file.path,
        content: file.content,
      }));
      return nextWrite();
    };

    return {
      async next(observation: Observation): Promise<Action> {
        switch (phase) {
          case 'start':
            phase = 'repro';
            return { type: 'run', command: repro };
          case 'repro':
            if (observation.type === 'result' && observation.action === 'run' && observation.ok) return keepWaiting();
            return reproStep(observation, oracle, startPatching, keepWaiting);
          case 'patch':
            return nextWrite();
          case 'rerun':
            if (
              observation.type === 'tick' ||
              (observation.type === 'result' && observation.action === 'run' && observation.ok)
            )
              return keepWaiting();
            phase = 'done';
            return { type: 'finish', summary: 'oracle: applied solution.patch and re-ran the repro' };
          case 'done':
            return { type: 'finish', summary: 'oracle: done' };
        }
      },
    };
  },
};

async function reproStep(
  observation: Observation,
  oracle: OracleView,
  startPatching: () => Promise<Action>,
  keepWaiting: () => Action,
): Promise<Action> {
  if (observation.type === 'tick') {
    const isHang = oracle.testCase.kind === 'hang';
    return isHang && oracle.onsetSeen() ? { type: 'kill' } : keepWaiting();
  }
  return startPatching();
}
