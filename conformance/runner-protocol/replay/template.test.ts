import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPath } from './paths.js';
import { referencedVariables, substitute, TemplateError } from './template.js';
import { satisfies } from './versions.js';

const vars = {
  requestId: 7,
  message: { resources: { endpoints: [{ name: 'SystemVssConnection', url: 'http://h/' }] }, variables: { 'system.github.token': { value: 't' } } },
};

describe('replay templates and paths', () => {
  it('keeps the type of a whole placeholder and writes text inside a string', () => {
    assert.deepEqual(substitute({ requestId: '{{requestId}}', path: 'jobrequests/{{requestId}}' }, vars), { requestId: 7, path: 'jobrequests/7' });
  });

  it('leaves GitHub expressions alone', () => {
    assert.equal(substitute('${{ steps.x.outputs.y }} and {{requestId}}', vars), '${{ steps.x.outputs.y }} and 7');
  });

  it('reads paths with finds and quoted keys, members without case', () => {
    assert.equal(readPath(vars, 'message.resources.endpoints[name=systemvssconnection].URL'), 'http://h/');
    assert.equal(readPath(vars, 'message.variables["system.github.token"].value'), 't');
  });

  it('defaults, and refuses a variable nobody set', () => {
    assert.equal(substitute('{{message.missing ?? true}}', vars), true);
    assert.equal(substitute('{{message.missing ?? requestId}}', vars), 7);
    assert.throws(() => substitute('{{nothing}}', vars), TemplateError);
    assert.deepEqual(referencedVariables({ a: '{{x.y}} {{$uuid}} {{z ?? 1}}' }), ['x']);
  });

  it('runner version ranges', () => {
    assert.equal(satisfies('2.336.0', '>=2.336.0'), true);
    assert.equal(satisfies('2.335.1', '>=2.335.0 <2.336.0'), true);
    assert.equal(satisfies('2.337.0', '<2.337.0'), false);
  });
});
