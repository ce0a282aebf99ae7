import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { basicExpressionToken, booleanToken, mappingToken, numberToken, stringToken, type TemplateToken } from '../../../core/protocol/index.js';
import {
  evaluateCondition,
  evaluateContinueOnError,
  evaluateDefaultsRun,
  evaluateDisplayName,
  evaluateJobOutputs,
  evaluatePostCondition,
  evaluateStepEnvironment,
  evaluateStepInputs,
  evaluateTimeoutMinutes,
  type EvaluationScope,
} from './evaluate-fields.js';

const scope: EvaluationScope = {
  contexts: {
    github: { ref: 'refs/heads/main', run_id: '42' },
    matrix: { minutes: 2, coe: true, name: 'alpha' },
    steps: { prior: { outputs: { minutes: '3', flag: 'true' }, outcome: 'success', conclusion: 'success' } },
    env: { GREETING: 'hi' },
    secrets: { TOKEN: 's3cret' },
    job: { status: 'success' },
  },
  fileTable: ['.github/workflows/ci.yml'],
};

const map = (entries: Record<string, TemplateToken>) => mappingToken(Object.entries(entries).map(([key, value]) => ({ key: stringToken(key), value })));
const expr = (text: string, line?: number) => basicExpressionToken(text, line === undefined ? undefined : { file: 1, line, col: 7 });

describe('evaluating the job message fields', () => {
  it('timeout-minutes: numbers and expressions, truncated to whole minutes like the runner', () => {
    assert.equal(evaluateTimeoutMinutes(undefined, scope), 0);
    assert.equal(evaluateTimeoutMinutes(numberToken(5), scope), 5);
    assert.equal(evaluateTimeoutMinutes(numberToken(1.9), scope), 1);
    assert.equal(evaluateTimeoutMinutes(expr('matrix.minutes'), scope), 2);
    assert.equal(evaluateTimeoutMinutes(expr('fromJSON(steps.prior.outputs.minutes)'), scope), 3);
    assert.equal(evaluateTimeoutMinutes(expr("fromJSON('-1')"), scope), -1);
    // A string where a number is expected is the runner's type error, placed at the token.
    assert.throws(() => evaluateTimeoutMinutes(expr('steps.prior.outputs.minutes', 12), scope), /ci\.yml \(Line: 12, Col: 7\).*number|Unexpected/);
  });

  it('continue-on-error: booleans and expressions', () => {
    assert.equal(evaluateContinueOnError(undefined, scope), false);
    assert.equal(evaluateContinueOnError(booleanToken(true), scope), true);
    assert.equal(evaluateContinueOnError(expr('matrix.coe'), scope), true);
    assert.equal(evaluateContinueOnError(expr('fromJSON(steps.prior.outputs.flag)'), scope), true);
  });

  it('step env: literals become strings, expressions see env, secrets and steps', () => {
    const env = evaluateStepEnvironment(
      map({ NUMBER: numberToken(3), FLAG: booleanToken(false), FROM_ENV: expr('env.GREETING'), SECRET: expr('secrets.TOKEN'), OUT: expr('steps.prior.outputs.minutes') }),
      scope,
    );
    assert.deepEqual(env, { NUMBER: '3', FLAG: 'false', FROM_ENV: 'hi', SECRET: 's3cret', OUT: '3' });
  });

  it('step inputs and job outputs read as string maps', () => {
    assert.deepEqual(evaluateStepInputs(map({ script: expr("format('echo {0}', matrix.name)"), shell: stringToken('bash') }), scope), { script: 'echo alpha', shell: 'bash' });
    assert.deepEqual(evaluateJobOutputs(map({ value: expr('steps.prior.outputs.minutes') }), scope), { value: '3' });
  });

  it('defaults.run may not read steps (its schema allows no steps context)', () => {
    assert.deepEqual(evaluateDefaultsRun(map({ shell: stringToken('sh'), 'working-directory': expr("format('{0}/sub', github.ref)") }), scope), {
      shell: 'sh',
      'working-directory': 'refs/heads/main/sub',
    });
    assert.throws(() => evaluateDefaultsRun(map({ shell: expr('steps.prior.outputs.minutes') }), scope), /Unrecognized named-value: 'steps'/);
  });

  it('display names evaluate expressions; a failing fromJSON is an error the caller reports', () => {
    assert.equal(evaluateDisplayName(expr("format('Build {0}', matrix.name)"), scope), 'Build alpha');
    assert.throws(() => evaluateDisplayName(expr("fromJSON('{')"), scope));
  });

  it('step conditions: implicit success(), status functions reading the job status', () => {
    assert.equal(evaluateCondition('', 'success', scope), true);
    assert.equal(evaluateCondition("github.ref == 'refs/heads/main'", 'failure', scope), false);
    assert.equal(evaluateCondition('failure()', 'failure', scope), true);
    assert.equal(evaluateCondition('always()', 'cancelled', scope), true);
    assert.equal(evaluateCondition('success()', 'cancelled', scope), false);
    assert.equal(evaluateCondition('cancelled()', 'cancelled', scope), true);
    // post-if is taken as written: no implicit success(), always() when empty.
    assert.equal(evaluatePostCondition('', 'failure', scope), true);
    assert.equal(evaluatePostCondition("github.ref == 'refs/heads/main'", 'failure', scope), true);
  });
});
