export { VssError, vssErrorBody, vssTypeName, type VssErrorBody, type VssExceptionKey } from './vss-error.js';
export { sendBearerChallenge, sendVssError, vssDate, wrappedList, type WrappedList } from './vss-reply.js';
export { installVssErrorHandler } from './vss-error-handler.js';
