import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dockerImage } from './docker-image.js';

test('docker:// images, Dockerfiles anywhere, and nothing else', () => {
  assert.deepEqual(dockerImage('DOCKER://ghcr.io/o/i:1'), { kind: 'registry', image: 'ghcr.io/o/i:1' });
  assert.deepEqual(dockerImage('build/Dockerfile'), { kind: 'dockerfile', path: 'build/Dockerfile' });
  assert.deepEqual(dockerImage('Dockerfile.alpine'), { kind: 'dockerfile', path: 'Dockerfile.alpine' });
  assert.deepEqual(dockerImage('my.dockerfile'), { kind: 'dockerfile', path: 'my.dockerfile' });
  assert.equal(dockerImage('alpine:3'), undefined);
});
