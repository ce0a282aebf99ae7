export { brokerUrl, createRunnerUrls, isSubdomainOf, normalizeUrl, tenantUrl, TOKEN_PATH, tokenUrl, type RunnerUrls } from './runner-urls.js';
