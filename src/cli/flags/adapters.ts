export { bundledAdapters } from '../../agents/cli/index.js';
