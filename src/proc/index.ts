/**
 * The one /proc layer: reading (one buffer, null once a process is gone), the stat parser, the processes of an attempt,
 * their files and memory, descriptors kept open, and the harness's own process and machine.
 */
export * from './read.js';
export * from './stat.js';
export * from './processes.js';
export * from './schedstat.js';
export * from './files.js';
export * from './host.js';
export * from './descriptors.js';
export * from './memory.js';
export * from './pid-files.js';
