// Twirp (JSON) service routes and the {code, msg} error envelope.
export { registerTwirpService, TWIRP_PREFIX, TwirpError, type TwirpMethod, type TwirpMethods } from './twirp.js';
export { int64, timestamp } from './wire-values.js';
