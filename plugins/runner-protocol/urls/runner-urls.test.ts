import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSvcError } from '../../../core/kernel/index.js';
import { brokerUrl, createRunnerUrls, isSubdomainOf, normalizeUrl, tenantUrl, tokenUrl } from './runner-urls.js';

describe('runner URLs', () => {
  it('put the tenant at the root, the token endpoint under _apis and the broker with a trailing slash', () => {
    assert.equal(tenantUrl('http://h:9090'), 'http://h:9090/');
    assert.equal(tokenUrl('http://h:9090'), 'http://h:9090/_apis/oauth2/token');
    assert.equal(brokerUrl('http://h:9090'), 'http://h:9090/broker/');
  });

  it("follow the runner's authority rule: equal, or a DNS sub-domain (host and port)", () => {
    assert.ok(isSubdomainOf('git.example.test', 'git.example.test'));
    assert.ok(isSubdomainOf('actions.git.example.test:8443', 'git.example.test:8443'));
    assert.ok(!isSubdomainOf('localhost:8080', 'localhost:3000'));
    assert.ok(!isSubdomainOf('evilgit.example.test', 'git.example.test'));
  });

  it('answer a registration on the --url authority, or on SVC_PUBLIC_URL when the runner accepts it', () => {
    assert.equal(createRunnerUrls(undefined).registrationBase(new URL('http://127.0.0.1:9090/acme/widgets')), 'http://127.0.0.1:9090');
    const published = createRunnerUrls('https://ci.example.test/svc/');
    assert.equal(published.registrationBase(new URL('https://example.test/acme/widgets')), 'https://ci.example.test/svc');
    assert.throws(
      () => published.registrationBase(new URL('http://127.0.0.1:9090/acme/widgets')),
      (error: unknown) => isSvcError(error) && error.status === 400 && /--url https:\/\/ci\.example\.test/.test(error.message),
    );
  });

  it('compare URLs as the runner normalises them', () => {
    assert.equal(normalizeUrl('HTTP://Example.Test:80/_apis/oauth2/token'), 'http://example.test/_apis/oauth2/token');
    assert.equal(normalizeUrl('not a url'), undefined);
  });
});
