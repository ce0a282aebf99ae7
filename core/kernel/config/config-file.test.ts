import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../errors.js';
import { parseOperatorConfig, readOperatorConfig } from './config-file.js';

const FILE = '/etc/svc/config.toml';

function problems(text: string): string {
  try {
    parseOperatorConfig(FILE, text);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.ok(error.message.startsWith(FILE), 'the message names the file');
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

describe('operator config file', () => {
  it('accepts every table of the spec', () => {
    const config = parseOperatorConfig(
      FILE,
      `
secrets_store = "memory"
credential_store = "file"
[fork_policy]
run_fork_workflows = false
require_approval = true
[execution_protection]
mode = "enforce"
event_rules = [{ event = "pull_request_target", action = "deny" }]
actor_rules = [{ actor = "dependabot[bot]", workflows = ["deploy*.yml"], action = "deny" }]
[token_permissions_ceiling]
default = "read"
contents = "write"
pull-requests = "read"
allow_create_approve_pr = false
[environment_rules."acme/web".production]
deployment_branches = ["main", "release/*"]
wait_timer_minutes = 5
required_reviewers = 1
[forge.pr]
auto = "never"
draft = true
exclude = ["dependabot/**"]
[secrets.global]
NPM_TOKEN = "sealed:v1:abc"
[secrets.repository."acme/web"]
DEPLOY_KEY = "sealed:v1:def"
[secrets.environment."acme/web".production]
API_KEY = "sealed:v1:ghi"
`,
    );
    assert.equal(config.execution_protection?.mode, 'enforce');
    assert.equal(config.token_permissions_ceiling?.['pull-requests'], 'read');
    assert.equal(config.environment_rules?.['acme/web']?.['production']?.wait_timer_minutes, 5);
  });

  it('an empty file is an empty configuration', () => {
    assert.deepEqual({ ...parseOperatorConfig(FILE, '') }, {});
  });

  it('rejects unknown keys, naming the table and the allowed keys', () => {
    assert.match(problems('[fork_policy]\nrun_forks = true\n'), /\[fork_policy\] has unknown key 'run_forks' \(allowed: run_fork_workflows, require_approval\)/);
    assert.match(problems('[admin]\nx = 1\n'), /the top level has unknown key 'admin'/);
    assert.match(problems('[token_permissions_ceiling]\nwrite_all = "read"\n'), /unknown key 'write_all'/);
  });

  it('names the key and the allowed values for a bad enumeration', () => {
    assert.match(problems('[execution_protection]\nmode = "block"\n'), /execution_protection\.mode must be one of evaluate, enforce; got "block"/);
    assert.match(problems('[token_permissions_ceiling]\ncontents = "full"\n'), /token_permissions_ceiling\.contents must be one of none, read, write, admin/);
    assert.match(problems('credential_store = "memory"\n'), /credential_store must be one of file, os/);
  });

  it('names the key for a wrong type', () => {
    assert.match(problems('[fork_policy]\nrequire_approval = "yes"\n'), /fork_policy\.require_approval must be a boolean; got "yes"/);
    assert.match(problems('fork_policy = 3\n'), /fork_policy must be a table; got 3/);
  });

  it('checks rule records', () => {
    assert.match(problems('[execution_protection]\nevent_rules = [{ event = "push", action = "allow" }]\n'), /execution_protection\.event_rules\[0\]\.action must be "deny"/);
    assert.match(problems('[execution_protection]\nactor_rules = [{ action = "deny" }]\n'), /actor_rules\[0\] must have required property 'actor'/);
  });

  it('rejects more than one local reviewer and bad environment names', () => {
    assert.match(problems('[environment_rules."acme/web".prod]\nrequired_reviewers = 2\n'), /required_reviewers must be at most 1; got 2/);
    assert.match(problems('[environment_rules."acme/web"."-prod"]\nwait_timer_minutes = 1\n'), /key '-prod', which is not allowed \(environment names/);
    assert.match(problems('[environment_rules.acme]\n'), /key 'acme', which is not allowed \(repository keys are 'owner\/repo'\)/);
  });

  it('requires UPPER_SNAKE secret names', () => {
    assert.match(problems('[secrets.global]\nnpm_token = "x"\n'), /secret names are UPPER_SNAKE/);
  });

  it('lists every problem at once', () => {
    const message = problems('[fork_policy]\nbad = 1\n[forge.pr]\nauto = "always"\n');
    assert.match(message, /2 problems/);
  });

  it('reports TOML syntax errors with line and column', () => {
    assert.match(problems('[fork_policy]\nrequire_approval = \n'), /^\/etc\/svc\/config\.toml:2:\d+: invalid TOML/);
  });
});

describe('config file mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  it('refuses a file that is not 0600, saying how to fix it', () => {
    const path = join(dir, 'open.toml');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    assert.throws(() => readOperatorConfig(path, true), /has mode 0644; it must be 0600 .* chmod 600/);
    chmodSync(path, 0o640);
    assert.throws(() => readOperatorConfig(path, true), /mode 0640/);
  });
  it('reads a 0600 file', () => {
    const path = join(dir, 'ok.toml');
    writeFileSync(path, '[fork_policy]\nrequire_approval = true\n', { mode: 0o600 });
    assert.equal(readOperatorConfig(path, true).fork_policy?.require_approval, true);
  });
  it('a missing default file is empty; a missing SVC_CONFIG file is an error', () => {
    assert.deepEqual(readOperatorConfig(join(dir, 'absent.toml'), false), {});
    assert.throws(() => readOperatorConfig(join(dir, 'absent.toml'), true), /does not exist/);
  });
});
