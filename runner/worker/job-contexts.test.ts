import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JobContexts } from './job-contexts.js';
import { decodeJobMessage } from './job-message/index.js';
import { actionsRuntimeEnvironment, runtimeEnvironment } from './runtime-environment.js';
import { testMessageJson } from './test-support.js';

function message(overrides: Record<string, unknown> = {}) {
  const json = testMessageJson({
    steps: [{ run: 'echo hi' }],
    variables: {
      MY_SECRET: { value: 'shh', isSecret: true },
      'system.accessToken': { value: 'internal', isSecret: true },
      plain: { value: 'visible' },
      actions_set_orchestration_id_env_for_actions: { value: 'true' },
      'system.orchestrationId': { value: 'plan.build.__default' },
      actions_uses_cache_service_v2: { value: 'True' },
      actions_cache_mode: { value: 'write' },
    },
    contexts: {
      vars: { t: 2, d: [{ k: 'REGION', v: 'eu' }] },
      job: { t: 2, d: [{ k: 'check_run_id', v: 99 }] },
      github: {
        t: 2,
        d: [
          { k: 'repository', v: 'acme/widgets' },
          { k: 'ref_protected', v: false },
          { k: 'run_number', v: '7' },
          { k: 'token', v: 'from-message' },
          { k: 'event', v: { t: 2 } },
          { k: 'secret_source', v: 'Actions' },
        ],
      },
    },
  });
  return decodeJobMessage({ ...json, ...overrides });
}

describe('the job contexts', () => {
  it('github: the message wins over the runner-filled token and job; secrets: secret variables but the system tokens', () => {
    const m = message();
    const contexts = new JobContexts(m);
    assert.equal(contexts.github['token'], 'from-message');
    assert.equal(contexts.github['job'], 'build');
    const view = contexts.forStep({ env: { A: 'b' }, steps: {}, jobStatus: 'failure', github: { action: '__run' } });
    assert.deepEqual(view['secrets'], { MY_SECRET: 'shh' }, 'system.github.token and system.accessToken stay out');
    assert.deepEqual(view['job'], { check_run_id: 99, status: 'failure' });
    assert.deepEqual(view['vars'], { REGION: 'eu' });
    assert.deepEqual(view['env'], { A: 'b' });
    assert.equal((view['github'] as Record<string, unknown>)['action'], '__run');
    assert.equal(contexts.github['action'], undefined, 'per-step members do not stick');
  });

  it('GITHUB_* from allow-listed github members (booleans as true/false), RUNNER_* from runner, OIDC only when offered', () => {
    const m = message();
    const contexts = new JobContexts(m);
    contexts.setGithub('workspace', '/w/widgets/widgets');
    contexts.setRunner({ name: 'build-01', os: 'Linux', arch: 'X64', environment: 'self-hosted', temp: '/w/_temp', toolCache: '/w/_tool', workspace: '/w/widgets', debug: true });
    const env = runtimeEnvironment({ ...contexts.github, env: '/w/_temp/_runner_file_commands/set_env_x' }, contexts.runner, m);
    assert.equal(env['GITHUB_REPOSITORY'], 'acme/widgets');
    assert.equal(env['GITHUB_REF_PROTECTED'], 'false');
    assert.equal(env['GITHUB_WORKSPACE'], '/w/widgets/widgets');
    assert.equal(env['GITHUB_ENV'], '/w/_temp/_runner_file_commands/set_env_x');
    assert.equal(env['GITHUB_TOKEN'], undefined, 'the token is not exported');
    assert.equal(env['GITHUB_SECRET_SOURCE'], undefined, 'not on the allow list');
    assert.equal(env['GITHUB_EVENT'], undefined);
    assert.deepEqual(
      Object.keys(env).filter((k) => k.startsWith('RUNNER_')).sort(),
      ['RUNNER_ARCH', 'RUNNER_DEBUG', 'RUNNER_ENVIRONMENT', 'RUNNER_NAME', 'RUNNER_OS', 'RUNNER_TEMP', 'RUNNER_TOOL_CACHE', 'RUNNER_WORKSPACE'],
    );
    assert.equal(env['ACTIONS_ID_TOKEN_REQUEST_URL'], undefined);
    assert.equal(env['ACTIONS_ORCHESTRATION_ID'], 'plan.build.__default');
    assert.equal(env['ACTIONS_RUNTIME_TOKEN'], undefined, 'run: steps do not get the runtime token');

    const withOidc = message({
      resources: { endpoints: [{ name: 'SystemVssConnection', url: 'http://s/', authorization: { scheme: 'OAuth', parameters: { AccessToken: 'jt' } }, data: { GenerateIdTokenUrl: 'http://s/id?api-version=2.0' } }] },
    });
    const oidc = runtimeEnvironment({}, {}, withOidc);
    assert.deepEqual([oidc['ACTIONS_ID_TOKEN_REQUEST_URL'], oidc['ACTIONS_ID_TOKEN_REQUEST_TOKEN']], ['http://s/id?api-version=2.0', 'jt']);
  });

  it('the Actions runtime for JavaScript and container actions', () => {
    const runtime = actionsRuntimeEnvironment(message());
    assert.deepEqual(runtime, {
      ACTIONS_RUNTIME_URL: 'http://127.0.0.1:9/',
      ACTIONS_RUNTIME_TOKEN: 'job.token.value',
      ACTIONS_CACHE_URL: 'http://127.0.0.1:9/cache/',
      ACTIONS_RESULTS_URL: 'http://127.0.0.1:9/',
      ACTIONS_CACHE_SERVICE_V2: 'True',
      ACTIONS_CACHE_MODE: 'write',
      ACTIONS_ORCHESTRATION_ID: 'plan.build.__default',
    });
  });
});
