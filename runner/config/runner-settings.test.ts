import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunnerConfigError } from './runner-root.js';
import { formatRunnerCredentials, parseRunnerCredentials } from './runner-credentials.js';
import { formatRunnerSettings, parseRunnerSettings } from './runner-settings.js';

describe('.runner', () => {
  it('reads the keys in any casing, after a BOM, with _work as the default work folder', () => {
    const text = '\uFEFF{"AgentId":42,"AGENTNAME":"build-01","poolId":1,"ServerUrl":"https://h/_services/pipelines/","UseV2Flow":true,"serverUrlV2":"https://h/broker/"}';
    assert.deepEqual(parseRunnerSettings(text, '.runner'), {
      agentId: 42,
      agentName: 'build-01',
      poolId: 1,
      serverUrl: 'https://h/_services/pipelines/',
      useV2Flow: true,
      serverUrlV2: 'https://h/broker/',
      workFolder: '_work',
    });
  });

  it('names the file and the problem when it is not a runner configuration', () => {
    assert.throws(() => parseRunnerSettings('{"agentId":"x"}', '/r/.runner'), (error: unknown) => error instanceof RunnerConfigError && /\/r\/\.runner is not a runner configuration: .*agentId/.test(error.message));
    assert.throws(() => parseRunnerSettings('{"agentId":1,"agentName":"a","poolId":1,"serverUrl":"","useV2Flow":true}', '.runner'), /useV2Flow but has no serverUrlV2/);
    assert.throws(() => parseRunnerSettings('nope', '.runner'), /is not valid JSON/);
  });

  it('is written in the runner member order, default flags left out, isHostedServer only when false', () => {
    const text = formatRunnerSettings({ workFolder: '_work', agentName: 'a', agentId: 1, poolId: 2, serverUrl: 'https://h/', isHostedServer: false, ephemeral: false, disableUpdate: true });
    assert.equal(text, JSON.stringify({ agentId: 1, agentName: 'a', poolId: 2, serverUrl: 'https://h/', workFolder: '_work', isHostedServer: false, disableUpdate: true }, null, 2));
    assert.doesNotMatch(formatRunnerSettings({ agentId: 1, agentName: 'a', poolId: 2, serverUrl: 'https://h/', workFolder: '_work', isHostedServer: true }), /isHostedServer/);
  });
});

describe('.credentials', () => {
  it('round-trips with .NET booleans and reads data keys in any casing', () => {
    const credentials = { scheme: 'OAuth' as const, clientId: 'c', authorizationUrl: 'https://h/token', requireFipsCryptography: false };
    const text = formatRunnerCredentials(credentials);
    assert.deepEqual(JSON.parse(text), { scheme: 'OAuth', data: { clientId: 'c', authorizationUrl: 'https://h/token', requireFipsCryptography: 'False' } });
    assert.deepEqual(parseRunnerCredentials(text, '.credentials'), credentials);
    const shouting = parseRunnerCredentials('{"Scheme":"OAuth","Data":{"ClientId":"c","AuthorizationUrl":"https://h/t","RequireFipsCryptography":"TRUE"}}', '.credentials');
    assert.equal(shouting.requireFipsCryptography, true);
    assert.throws(() => parseRunnerCredentials('{"scheme":"Basic","data":{}}', '.credentials'), /needs the OAuth scheme/);
  });
});
