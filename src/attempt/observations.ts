import type { ObservationBody } from '../agents/protocol.js';
import type { Action } from '../types/actions.js';

/** An action that could not be carried out: the agent is told why, and the attempt goes on. */
export function failure(action: Pick<Action, 'type'>, message: string): ObservationBody {
  return { type: 'result', action: action.type, ok: false, message };
}
