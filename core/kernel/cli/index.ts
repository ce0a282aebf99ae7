export { DEFAULT_SERVER_URL, MissingTokenError, resolveConnection, serverBaseUrl, type ServerConnection } from './server-connection.js';
export { apiRequest, ServerAnswerError, ServerUnreachableError, type ApiFetchInit } from './api-request.js';
