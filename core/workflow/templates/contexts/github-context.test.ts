import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildGithubContext, type GithubContextInput } from './github-context.js';

const payload = {
  ref: 'refs/heads/my_branch',
  after: 'c27d339ee6075c1f744c5d4b200f7901aad2c369',
  repository: { full_name: 'octocat/hello-world', id: 1296269, owner: { login: 'octocat', id: 583231 }, default_branch: 'main' },
  sender: { login: 'octocat', id: 583231 },
};

const input: GithubContextInput = {
  event: { name: 'push', payload },
  run: { id: 1536140711, number: 314, attempt: 1 },
  workflow: { name: 'Context testing', path: '.github/workflows/ctx.yml' },
};

describe('buildGithubContext', () => {
  test('matches the documented example for a push', () => {
    const github = buildGithubContext(input);
    assert.deepEqual(
      {
        ref: github.ref,
        sha: github.sha,
        repository: github.repository,
        repository_owner: github.repository_owner,
        repositoryUrl: github.repositoryUrl,
        run_id: github.run_id,
        run_number: github.run_number,
        retention_days: github.retention_days,
        run_attempt: github.run_attempt,
        actor: github.actor,
        workflow: github.workflow,
        head_ref: github.head_ref,
        base_ref: github.base_ref,
        event_name: github.event_name,
        server_url: github.server_url,
        api_url: github.api_url,
        graphql_url: github.graphql_url,
        ref_name: github.ref_name,
        ref_protected: github.ref_protected,
        ref_type: github.ref_type,
        secret_source: github.secret_source,
      },
      {
        ref: 'refs/heads/my_branch',
        sha: 'c27d339ee6075c1f744c5d4b200f7901aad2c369',
        repository: 'octocat/hello-world',
        repository_owner: 'octocat',
        repositoryUrl: 'git://github.com/octocat/hello-world.git',
        run_id: '1536140711',
        run_number: '314',
        retention_days: '90',
        run_attempt: '1',
        actor: 'octocat',
        workflow: 'Context testing',
        head_ref: '',
        base_ref: '',
        event_name: 'push',
        server_url: 'https://github.com',
        api_url: 'https://api.github.com',
        graphql_url: 'https://api.github.com/graphql',
        ref_name: 'my_branch',
        ref_protected: false,
        ref_type: 'branch',
        secret_source: 'Actions',
      },
    );
    assert.equal(github.event, payload);
    assert.equal(github.repository_id, '1296269');
    assert.equal(github.actor_id, '583231');
    assert.equal(github.triggering_actor, 'octocat');
    assert.equal(github.workflow_ref, 'octocat/hello-world/.github/workflows/ctx.yml@refs/heads/my_branch');
    assert.equal(github.workflow_sha, github.sha);
  });

  test('a workflow without a name is called by its path; a re-run keeps the actor', () => {
    const github = buildGithubContext({
      ...input,
      workflow: { path: '.github/workflows/ci.yml' },
      triggeringActor: { login: 'hubot', id: 2 },
      run: { id: 1, number: 1, attempt: 2 },
    });
    assert.equal(github.workflow, '.github/workflows/ci.yml');
    assert.deepEqual([github.actor, github.triggering_actor, github.run_attempt], ['octocat', 'hubot', '2']);
  });

  test('a server other than github.com gets the GHES-style API URLs', () => {
    const github = buildGithubContext({ ...input, server: { serverUrl: 'https://svc.example:9090/' } });
    assert.deepEqual([github.server_url, github.api_url, github.graphql_url, github.repositoryUrl], [
      'https://svc.example:9090',
      'https://svc.example:9090/api/v3',
      'https://svc.example:9090/api/graphql',
      'git://svc.example:9090/octocat/hello-world.git',
    ]);
  });

  test('pull requests fill head_ref and base_ref', () => {
    const pull_request = { number: 2, merge_commit_sha: 'm', base: { ref: 'main' }, head: { ref: 'topic' } };
    const github = buildGithubContext({ ...input, event: { name: 'pull_request', payload: { ...payload, pull_request } } });
    assert.deepEqual([github.ref, github.sha, github.head_ref, github.base_ref, github.ref_name], ['refs/pull/2/merge', 'm', 'topic', 'main', '2/merge']);
  });

  test('an event that does not carry the commit needs the sha', () => {
    const schedule = { ...input, event: { name: 'schedule', payload: { repository: payload.repository } } };
    assert.throws(() => buildGithubContext(schedule), /pass sha \(the tip of 'refs\/heads\/main'\)/);
    assert.equal(buildGithubContext({ ...schedule, sha: 'abc' }).sha, 'abc');
  });
});
