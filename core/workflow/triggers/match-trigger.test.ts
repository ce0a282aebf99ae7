import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchTrigger, triggerEvents, validateOn } from './match-trigger.js';
import { declaredInputs } from './on-section.js';
import type { OnSection, TriggerEvent, TriggerResult } from './types.js';

function status(on: OnSection, event: TriggerEvent): TriggerResult['status'] {
  return matchTrigger(on, event).status;
}

const push = (ref: string, changedFiles?: readonly string[]): TriggerEvent =>
  changedFiles === undefined ? { name: 'push', ref } : { name: 'push', ref, changedFiles };

describe('matchTrigger: event names', () => {
  it('accepts the three shapes of on', () => {
    assert.equal(status('push', push('refs/heads/main')), 'triggered');
    assert.equal(status(['pull_request', 'push'], push('refs/heads/main')), 'triggered');
    assert.equal(status({ push: null }, push('refs/heads/main')), 'triggered');
  });

  it('skips events the workflow does not list, naming them', () => {
    const result = matchTrigger(['push', 'issues'], { name: 'fork' });
    assert.equal(result.status, 'skipped');
    if (result.status === 'skipped') assert.match(result.reason, /does not run on 'fork' \(on: push, issues\)/);
  });

  it('never triggers workflow_call from an event', () => {
    const result = matchTrigger({ workflow_call: null }, { name: 'workflow_call' });
    assert.equal(result.status, 'skipped');
  });

  it('rejects a malformed on section', () => {
    assert.equal(status([] as readonly string[], push('refs/heads/main')), 'invalid');
    assert.equal(status({ push: 'main' }, push('refs/heads/main')), 'invalid');
    assert.equal(status({ push: { branches: [1] } }, push('refs/heads/main')), 'invalid');
  });
});

describe('matchTrigger: push refs', () => {
  it('reads a single string as a one-item list', () => {
    assert.equal(status({ push: { branches: 'main' } }, push('refs/heads/main')), 'triggered');
    assert.equal(status({ push: { branches: 'main' } }, push('refs/heads/dev')), 'skipped');
  });

  it('runs tag pushes only when tag filters say so', () => {
    const branchesOnly = { push: { branches: ['**'] } };
    assert.equal(status(branchesOnly, push('refs/tags/v1')), 'skipped');
    const tagsOnly = { push: { tags: ['v*'] } };
    assert.equal(status(tagsOnly, push('refs/heads/main')), 'skipped');
    assert.equal(status(tagsOnly, push('refs/tags/v1')), 'triggered');
    assert.equal(status({ push: { 'tags-ignore': ['v1'] } }, push('refs/heads/main')), 'skipped');
    assert.equal(status({ push: null }, push('refs/tags/v1')), 'triggered');
  });

  it('skips refs that are neither branches nor tags when ref filters exist', () => {
    assert.equal(status({ push: { branches: ['**'] } }, push('refs/notes/x')), 'skipped');
    assert.equal(status({ push: null }, push('refs/notes/x')), 'triggered');
  });

  it('throws when the caller leaves out the ref', () => {
    assert.throws(() => matchTrigger({ push: null }, { name: 'push' }), TypeError);
  });
});

describe('matchTrigger: paths', () => {
  const on = { push: { paths: ['src/**'] } };

  it('runs when any changed file matches', () => {
    assert.equal(status(on, push('refs/heads/main', ['README.md', 'src/a.ts'])), 'triggered');
    assert.equal(status(on, push('refs/heads/main', ['README.md'])), 'skipped');
  });

  it('does not run when nothing changed, runs when the diff is unknown', () => {
    assert.equal(status(on, push('refs/heads/main', [])), 'skipped');
    assert.equal(status(on, push('refs/heads/main')), 'triggered');
  });

  it('does not evaluate paths for tag pushes', () => {
    assert.equal(status({ push: { tags: ['v*'], paths: ['src/**'] } }, push('refs/tags/v1', ['README.md'])), 'triggered');
  });

  it('looks at the first 300 files only', () => {
    const files = [...Array.from({ length: 300 }, (_, i) => `docs/${i}.md`), 'src/late.ts'];
    assert.equal(status(on, push('refs/heads/main', files)), 'skipped');
  });

  it('paths-ignore runs when a file falls outside the ignored patterns', () => {
    const ignore = { push: { 'paths-ignore': ['docs/**'] } };
    assert.equal(status(ignore, push('refs/heads/main', ['docs/a.md'])), 'skipped');
    assert.equal(status(ignore, push('refs/heads/main', ['docs/a.md', 'x.ts'])), 'triggered');
  });

  it('requires branches and paths both to pass', () => {
    const both = { push: { branches: ['main'], paths: ['src/**'] } };
    assert.equal(status(both, push('refs/heads/main', ['src/a'])), 'triggered');
    assert.equal(status(both, push('refs/heads/dev', ['src/a'])), 'skipped');
    assert.equal(status(both, push('refs/heads/main', ['b'])), 'skipped');
  });
});

describe('matchTrigger: pull requests', () => {
  it('filters on the base branch, with or without refs/heads/', () => {
    const on = { pull_request: { branches: ['main'] } };
    assert.equal(status(on, { name: 'pull_request', action: 'opened', baseRef: 'main' }), 'triggered');
    assert.equal(status(on, { name: 'pull_request', action: 'opened', baseRef: 'refs/heads/main' }), 'triggered');
    assert.equal(status(on, { name: 'pull_request', action: 'opened', baseRef: 'dev' }), 'skipped');
    assert.throws(() => matchTrigger(on, { name: 'pull_request', action: 'opened' }), TypeError);
    assert.equal(status({ pull_request: null }, { name: 'pull_request', action: 'opened' }), 'triggered');
  });

  it('uses the default activity types of pull_request_target too', () => {
    const on = { pull_request_target: null };
    assert.equal(status(on, { name: 'pull_request_target', action: 'synchronize', baseRef: 'main' }), 'triggered');
    assert.equal(status(on, { name: 'pull_request_target', action: 'labeled', baseRef: 'main' }), 'skipped');
    assert.equal(status({ pull_request_target: { types: ['labeled'] } }, { name: 'pull_request_target', action: 'labeled' }), 'triggered');
  });
});

describe('matchTrigger: other events', () => {
  it('matches a schedule by its cron string (and timezone when known)', () => {
    const on = { schedule: [{ cron: '0 1 * * *' }, { cron: '30 5 * * 1', timezone: 'Europe/Paris' }] };
    assert.equal(status(on, { name: 'schedule', cron: '0 1 * * *' }), 'triggered');
    assert.equal(status(on, { name: 'schedule', cron: '0 2 * * *' }), 'skipped');
    assert.equal(status(on, { name: 'schedule', cron: '30 5 * * 1', timezone: 'Europe/Paris' }), 'triggered');
    assert.equal(status(on, { name: 'schedule', cron: '30 5 * * 1', timezone: 'UTC' }), 'skipped');
    assert.equal(status({ schedule: [{ timezone: 'UTC' }] }, { name: 'schedule', cron: 'x' }), 'invalid');
  });

  it('treats workflow_run workflows as patterns', () => {
    const on = { workflow_run: { workflows: ['Build C\\+\\+', 'Deploy *'], types: ['completed'] } };
    const run = (workflowName: string): TriggerEvent => ({ name: 'workflow_run', action: 'completed', workflowName, headBranch: 'main' });
    assert.equal(status(on, run('Build C++')), 'triggered');
    assert.equal(status(on, run('Deploy prod')), 'triggered');
    assert.equal(status(on, run('Lint')), 'skipped');
  });

  it('matches generic events on their activity types, all when omitted', () => {
    assert.equal(status({ issues: null }, { name: 'issues', action: 'labeled' }), 'triggered');
    assert.equal(status({ issues: { types: 'opened' } }, { name: 'issues', action: 'labeled' }), 'skipped');
    assert.equal(status({ issues: { types: ['opened'] } }, { name: 'issues' }), 'skipped');
    assert.equal(status({ create: null }, { name: 'create' }), 'triggered');
  });

  it('matches image_version names and versions', () => {
    const on = { image_version: { names: ['MyNewImage', 'MyOtherImage'], versions: ['1.*', '2.*'] } };
    assert.equal(status(on, { name: 'image_version', imageName: 'MyNewImage', imageVersion: '2.53.0' }), 'triggered');
    assert.equal(status(on, { name: 'image_version', imageName: 'MyNewImage', imageVersion: '3.0.0' }), 'skipped');
  });
});

describe('validateOn, triggerEvents, declaredInputs', () => {
  it('collects the problems of every event', () => {
    const errors = validateOn({
      push: { tags: ['v1'], 'tags-ignore': ['v2'] },
      pull_request: { paths: ['[bad'] },
      schedule: 'nightly',
    });
    assert.equal(errors.length, 3);
    assert.deepEqual(validateOn({ push: { branches: ['main'] }, workflow_dispatch: null }), []);
  });

  it('lists events in order and finds declared inputs', () => {
    const on = { workflow_dispatch: { inputs: { a: { type: 'string' } } }, push: null };
    assert.deepEqual(triggerEvents(on), ['workflow_dispatch', 'push']);
    assert.deepEqual(declaredInputs(on, 'workflow_dispatch'), { a: { type: 'string' } });
    assert.equal(declaredInputs(on, 'workflow_call'), undefined);
  });
});
