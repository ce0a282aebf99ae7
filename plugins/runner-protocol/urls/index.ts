export { brokerUrl, createRunnerUrls, isSubdomainOf, normalizeUrl, runServiceUrl, tenantUrl, TOKEN_PATH, tokenUrl, type RunnerUrls } from './runner-urls.js';
