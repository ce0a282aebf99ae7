import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readTemplateTokens } from '../templates/index.js';
import type { TemplateToken } from '../parser/index.js';
import { contextsRead, unknownContextsRead } from './context-reads.js';

/** The value of `key` in a one-job workflow's `build` job. */
function field(key: string, value: string): TemplateToken {
  const runsOn = key === 'runs-on' ? '' : '    runs-on: x\n';
  const read = readTemplateTokens(`on: push\njobs:\n  build:\n    ${key}: ${value}\n${runsOn}    steps: [{ run: a }]\n`, { fileName: 'ci.yml' });
  assert.deepEqual(read.errors, []);
  const jobs = (read.token as unknown as { find(k: string): { find(k: string): { find(k: string): TemplateToken } } }).find('jobs');
  return jobs.find('build').find(key);
}

describe('contextsRead', () => {
  it('finds the contexts an expression reads, not words in its strings or member names', () => {
    assert.deepEqual([...contextsRead(field('name', "${{ needs.setup.outputs.name }}"))], ['needs']);
    assert.deepEqual([...contextsRead(field('name', "${{ format('needs {0}', github.event.inputs.matrix) }}"))], []);
    assert.deepEqual([...contextsRead(field('name', '${{ matrix.os }}-${{ strategy.job-index }}'))].sort(), ['matrix', 'strategy']);
  });

  it('looks into mappings and sequences', () => {
    const token = field('environment', '{ name: "${{ inputs.env }}", url: "${{ steps.d.outputs.url }}" }');
    assert.deepEqual([...contextsRead(token)], ['inputs']);
    assert.deepEqual([...contextsRead(field('runs-on', '[self-hosted, "${{ needs.a.outputs.pool }}"]'))], ['needs']);
  });

  it('reports only the unknown contexts read, in a fixed order', () => {
    const token = field('name', '${{ matrix.os }} ${{ needs.a.outputs.x }}');
    assert.deepEqual(unknownContextsRead(token, new Set(['needs', 'matrix'])), ['needs', 'matrix']);
    assert.deepEqual(unknownContextsRead(token, new Set(['inputs'])), []);
    assert.deepEqual(unknownContextsRead(undefined, new Set(['needs'])), []);
  });
});
