// One HTTP exchange over node:http/https, for the processes that must not load Node's fetch: the
// CLI (core/kernel/cli) and the bundled runner (runner/client). No server code behind it.
export { exchange, type HttpAnswer, type HttpRequest } from './exchange.js';
