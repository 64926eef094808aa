import type { Observation } from '../protocol.js';
import { seconds } from '../../types/units.js';

/** The tool-result text of an action's result, a command's exit or a failed gate (ticks have their own template). */
export function observationText(observation: Exclude<Observation, { type: 'task' | 'tick' }>): string {
  if (observation.type === 'result') {
    const head = `${observation.ok ? 'ok' : 'error'}: ${observation.message}`;
    return observation.content === undefined ? head : `${head}\n${observation.content}`;
  }
  if (observation.type === 'gate') return gateText(observation);
  const { exit, kill } = observation;
  const how = exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.exitCode ?? 'unknown'}`;
  const signals = kill?.steps.map((step) => step.signal).join(' → ') || 'no signal needed';
  const killed = kill ? ` — ${kill.by === 'agent' ? 'you killed it' : `killed by the ${kill.by}`} (${signals})` : '';
  const output =
    observation.output.trim() === '' ? '(no output)' : `last output:\n${observation.output.replace(/\n$/, '')}`;
  return `command #${observation.commandId} ${how} after ${seconds(exit.durationMs)}${killed}\n${output}`;
}

function gateText(gate: Extract<Observation, { type: 'gate' }>): string {
  const output = gate.output.trim() === '' ? '(no output)' : `last output:\n${gate.output.replace(/\n$/, '')}`;
  const left =
    gate.retriesLeft === 0
      ? 'if it fails once more, your finish is accepted as it is'
      : `${gate.retriesLeft} more failed round(s) of it will be reported`;
  return `not finished: gate ${gate.gate + 1} \`${gate.command}\` failed: ${gate.reason}; fix it and finish again (${left})\n${output}`;
}
