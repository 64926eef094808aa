/** The monitor: samples a command's process tree, classifies what it is doing, and emits ticks. */
export { createMonitor } from './monitor.js';
export { sampleTree, type TreeSample } from './sample-tree.js';
export { classify, type ClassifyInput, type Verdict } from './classify.js';
export { createOnsetMatcher, type OnsetMatcher, type OutputStream } from './onset.js';
export { OutputWindow, DEFAULT_WINDOW, type WindowLimits, type WindowText } from './output-window.js';
export { DEFAULT_TICK_TEMPLATE, renderTick, type TickRenderer } from './render.js';
export { TICK_PLACEHOLDERS, tickValues } from './tick-values.js';
export { scheduleFor, type ModeSchedule } from './modes/index.js';
export type { Monitor, MonitorEvent, MonitorOptions } from './types.js';
