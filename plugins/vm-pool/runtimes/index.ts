export { createNodeRuntimes, type NodeRuntimes, type NodeRuntimesOptions, type RuntimeName, type RuntimeState } from './node-runtimes.js';
