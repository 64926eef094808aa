/** The one /proc layer: reading (one buffer, null once a process is gone), the stat parser, and the processes of an attempt. */
export * from './read.js';
export * from './stat.js';
export * from './processes.js';
export * from './schedstat.js';
export * from './files.js';
