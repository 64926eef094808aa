/** The monitor: samples a command's process tree, classifies what it is doing, and emits ticks. */
export { createMonitor } from './monitor.js';
export { sampleTree, type TreeSample } from './sample/sample-tree.js';
export { classify, type ClassifyInput, type Verdict } from './classify/classify.js';
export { createOnsetMatcher, type OnsetMatcher, type OutputStream } from './classify/onset.js';
export { OutputWindow, DEFAULT_WINDOW, type WindowLimits, type WindowText } from './output/output-window.js';
export { DEFAULT_TICK_TEMPLATE, renderTick, type TickRenderer } from './ticks/render.js';
export { TICK_PLACEHOLDERS, tickValues } from './ticks/tick-values.js';
export { scheduleFor, type ModeSchedule } from '../modes/index.js';
export type { Monitor, MonitorEvent, MonitorOptions } from './types.js';
export { waitKind } from './classify/wait-kind.js';
export { DEFAULT_LOG_CAP_BYTES } from './output/log-copy.js';
export { stripTerminalControls } from './output/terminal-text.js';
export { monotonicStart } from './ticks/schedule.js';
