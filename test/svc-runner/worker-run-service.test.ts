/**
 * The worker end to end in run-service mode (`RunnerJobRequest`, the broker flow): step states
 * and logs through the results service (Twirp + signed blob URLs) and `completejob` on the run
 * service (scenarios: fixtures/worker-scenarios.ts).
 */
import { describe } from 'node:test';
import { workerScenarios } from './fixtures/worker-scenarios.js';

describe('svc-runner worker, run-service mode (results + completejob)', () => workerScenarios('RunnerJobRequest'));
