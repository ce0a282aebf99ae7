export { assertChannel } from './channels.js';
export { ListenerRegistry } from './listener-registry.js';
