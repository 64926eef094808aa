/** The monitor: samples a command's process tree, classifies what it is doing, and emits ticks. */
export { createMonitor } from './monitor.js';
export { sampleTree, type TreeSample } from './sample-tree.js';
export { classify, type ClassifyInput, type Verdict } from './classify.js';
export { createOnsetMatcher, type OnsetMatcher, type OutputStream } from './onset.js';
export { OutputWindow, DEFAULT_WINDOW, type WindowLimits, type WindowText } from './output-window.js';
export { renderTick } from './render.js';
export { nextDeadline } from './schedule.js';
export type { Monitor, MonitorEvent, MonitorOptions } from './types.js';
