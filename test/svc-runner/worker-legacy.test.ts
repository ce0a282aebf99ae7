/**
 * The worker end to end in legacy mode (`PipelineAgentJobRequest`): timeline records, log pages,
 * the feed and `JobCompleted` against the server's VSS routes (scenarios: fixtures/worker-scenarios.ts).
 */
import { describe } from 'node:test';
import { workerScenarios } from './fixtures/worker-scenarios.js';

describe('svc-runner worker, legacy mode (VSS routes)', () => workerScenarios('PipelineAgentJobRequest'));
