import { z } from 'zod';
import { backoff } from './backoff.js';
import { inband } from './inband.js';
import { interval } from './interval.js';
import { noOutput } from './no-output.js';
import { none } from './none.js';
import { poll } from './poll.js';
import type { ModeDefinition, ModeField, ModeSchedule, ModeSettings } from './types.js';
import { timeout } from './timeout.js';
import { waitPid } from './wait-pid.js';

export { MODE_FIELDS, type ModeField, type ModeSchedule, type ModeSettings } from './types.js';

/**
 * How the monitor tells the agent about a running command: one definition per mode, each in its own file.
 * Durations are unscaled ms; the attempt multiplies them by --time-scale.
 */
export const MonitorModeSchema = z.discriminatedUnion('mode', [
  interval.schema,
  noOutput.schema,
  backoff.schema,
  timeout.schema,
  poll.schema,
  waitPid.schema,
  none.schema,
  inband.schema,
]);

export type MonitorMode = z.infer<typeof MonitorModeSchema>;
export type ModeName = MonitorMode['mode'];

const DEFINITIONS: { readonly [Name in ModeName]: ModeDefinition<Extract<MonitorMode, { mode: Name }>> } = {
  interval,
  'no-output': noOutput,
  backoff,
  timeout,
  poll,
  'wait-pid': waitPid,
  none,
  inband,
};

export const MODE_NAMES = MonitorModeSchema.options.map((option) => option.shape.mode.value) as readonly ModeName[];

/** A mode's definition, taking any mode of the union (each definition only ever sees its own). */
function definitionOf(name: ModeName): ModeDefinition<MonitorMode> {
  return DEFINITIONS[name] as ModeDefinition<MonitorMode>;
}

export function makeMode(name: ModeName, settings: ModeSettings): MonitorMode {
  return definitionOf(name).make(settings);
}

export function modeLabel(mode: MonitorMode): string {
  return definitionOf(mode.mode).label(mode);
}

/** Every duration of a mode multiplied by the time scale. */
export function scaleMode(mode: MonitorMode, by: number): MonitorMode {
  return definitionOf(mode.mode).scale(mode, by);
}

/** The mode's main period (the value `--interval` sets), or null for the modes that have none. */
export function modePeriodMs(mode: MonitorMode): number | null {
  return definitionOf(mode.mode).periodMs(mode);
}

export function withModePeriod(mode: MonitorMode, ms: number): MonitorMode {
  return definitionOf(mode.mode).withPeriod(mode, ms);
}

/**
 * The schedule a mode pushes to the agent, or null for the modes that push nothing: `poll` (the agent pulls a status
 * when it asks) and `wait-pid` (the agent parks until the command exits).
 */
export function scheduleFor(mode: MonitorMode): ModeSchedule | null {
  return definitionOf(mode.mode).schedule(mode);
}

/** Whether the agent pulls each status in this mode (`poll`): commands run in the background, waits take a timeout. */
export function pullsStatus(mode: Pick<MonitorMode, 'mode'>): boolean {
  return definitionOf(mode.mode).pullsStatus ?? false;
}

/** Whether this mode writes each tick into the running command's own output (`inband`) instead of delivering it. */
export function ticksInOutput(mode: Pick<MonitorMode, 'mode'>): boolean {
  return definitionOf(mode.mode).ticksInOutput ?? false;
}

export function modeTakes(name: ModeName): readonly ModeField[] {
  return DEFINITIONS[name].takes;
}

export function modeHelp(name: ModeName): string {
  return DEFINITIONS[name].help;
}
