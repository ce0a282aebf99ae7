// Twirp (JSON) service routes (the {code, msg} error envelope is the kernel's).
export { registerTwirpService, TWIRP_PREFIX, type TwirpMethod, type TwirpMethods } from './twirp.js';
export { int64, timestamp } from './wire-values.js';
