export { checkScenario, type CheckOptions, type SequenceResult } from './check-scenario.js';
export { RUNNER_PLANS, type RunnerPlan } from './plans.js';
export { compareSequences, runnerSequence, type SequenceComparison } from './sequence.js';
export { Recorder, type RecordedCall } from './recorder.js';
