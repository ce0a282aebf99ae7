import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { PipelineContextData, TemplateToken } from '../../core/protocol/index.js';
import {
  ContextDataType,
  TokenType,
  decodeContextData,
  decodeTemplateToken,
  encodeContextData,
  encodeTemplateToken,
  fromContextData,
  getContextValue,
  toContextData,
} from '../../core/protocol/index.js';
import { requireCorpus } from '../../test/support/corpus.js';
import { findJobMessageBlobs } from './job-message-blobs.js';

// Real job messages github.com's run service sent to a self-hosted runner (see the README there).
const corpus = requireCorpus('job-messages');
const files = (corpus.dir === undefined ? [] : readdirSync(corpus.dir))
  .filter((name) => name.endsWith('.json') && !name.endsWith('_evidence.json'))
  .sort();

function load(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, corpus.dir), 'utf8'));
}

function countTokens(token: TemplateToken): number {
  if (token.type === TokenType.Sequence) return 1 + token.items.reduce((n, item) => n + countTokens(item), 0);
  if (token.type === TokenType.Mapping) {
    return 1 + token.entries.reduce((n, entry) => n + countTokens(entry.key) + countTokens(entry.value), 0);
  }
  return 1;
}

function countContextData(data: PipelineContextData | null): number {
  if (data === null) return 1;
  if (data.type === ContextDataType.Array) return 1 + data.items.reduce((n, item) => n + countContextData(item), 0);
  if (data.type === ContextDataType.Dictionary || data.type === ContextDataType.CaseSensitiveDictionary) {
    return 1 + data.entries.reduce((n, entry) => n + countContextData(entry.value), 0);
  }
  return 1;
}

const totals = { tokenBlobs: 0, tokenNodes: 0, contextBlobs: 0, contextNodes: 0 };
const tokenTypesSeen = new Set<number>();
const contextTypesSeen = new Set<string>();

function noteTokenTypes(token: TemplateToken): void {
  tokenTypesSeen.add(token.type);
  if (token.type === TokenType.Sequence) token.items.forEach(noteTokenTypes);
  if (token.type === TokenType.Mapping) token.entries.forEach((e) => (noteTokenTypes(e.key), noteTokenTypes(e.value)));
}

function noteContextTypes(data: PipelineContextData | null): void {
  contextTypesSeen.add(data === null ? 'null' : String(data.type));
  if (data?.type === ContextDataType.Array) data.items.forEach(noteContextTypes);
  if (data?.type === ContextDataType.Dictionary || data?.type === ContextDataType.CaseSensitiveDictionary) {
    data.entries.forEach((e) => noteContextTypes(e.value));
  }
}

describe('job-message corpus: TemplateToken and PipelineContextData codecs', { skip: corpus.skip }, () => {
  it('finds the nine captured job messages', () => {
    assert.ok(files.length >= 9, `expected at least 9 job messages in ${corpus.dir?.pathname ?? ''}, found ${files.length}`);
  });

  for (const file of files) {
    describe(file, () => {
      const { blobs, unknownFields } = findJobMessageBlobs(load(file));
      const tokens = blobs.filter((b) => b.kind === 'token');
      const contexts = blobs.filter((b) => b.kind === 'context');

      it('has no field the walker does not know', () => {
        assert.deepEqual(unknownFields, []);
        assert.ok(tokens.length > 0 && contexts.length > 0);
      });

      it('decodes every TemplateToken and re-encodes it to the same JSON (github style)', () => {
        for (const blob of tokens) {
          const token = decodeTemplateToken(blob.json, { path: blob.path });
          assert.deepEqual(encodeTemplateToken(token, { style: 'github' }), blob.json, blob.path);
          // The runner's own spelling differs (bare strings, key/value) but reads back the same.
          assert.deepEqual(decodeTemplateToken(encodeTemplateToken(token)), token, blob.path);
          totals.tokenBlobs += 1;
          totals.tokenNodes += countTokens(token);
          noteTokenTypes(token);
        }
      });

      it('decodes every context and re-encodes it to the same JSON (github style)', () => {
        for (const blob of contexts) {
          const data = decodeContextData(blob.json, { path: blob.path });
          assert.deepEqual(encodeContextData(data, { style: 'github' }), blob.json, blob.path);
          assert.deepEqual(decodeContextData(encodeContextData(data)), data, blob.path);
          totals.contextBlobs += 1;
          totals.contextNodes += countContextData(data);
          noteContextTypes(data);
        }
      });

      it('converts every context to plain JSON and back without loss', () => {
        for (const blob of contexts) {
          const data = decodeContextData(blob.json);
          assert.deepEqual(encodeContextData(toContextData(fromContextData(data)), { style: 'github' }), blob.json, blob.path);
        }
      });
    });
  }

  after(() => {
    // Printed for whoever reads the run: how much real wire data the codecs went through.
    console.log(
      `job-message corpus: ${files.length} messages, ${totals.tokenBlobs} TemplateToken values (${totals.tokenNodes} tokens), ` +
        `${totals.contextBlobs} contexts (${totals.contextNodes} context-data values)`,
    );
  });
});

describe('job-message corpus: values decode to the right kind', { skip: corpus.skip }, () => {
  it('step attributes keep literal booleans and numbers, fractions included', () => {
    const steps = (load('step_attrs_99_attrs.json') as { steps: { contextName: string; continueOnError: unknown; timeoutInMinutes: unknown }[] }).steps;
    const step = (name: string) => {
      const found = steps.find((s) => s.contextName === name);
      assert.ok(found, name);
      return { coe: decodeTemplateToken(found.continueOnError), timeout: decodeTemplateToken(found.timeoutInMinutes) };
    };
    assert.deepEqual(step('fractional_timeout').timeout, { type: TokenType.Number, value: 1.9, file: 1, line: 106, col: 26 });
    assert.deepEqual(step('literal_false').coe, { type: TokenType.Boolean, value: false, file: 1, line: 63, col: 28 });
    assert.deepEqual(step('literal_false').timeout, { type: TokenType.Number, value: 0, file: 1, line: 64, col: 26 });
    assert.deepEqual(step('matrix_attrs').coe, { type: TokenType.BasicExpression, expression: 'matrix.coe', file: 1, line: 57, col: 28 });
    assert.deepEqual(step('prior').coe, { type: TokenType.Null });
  });

  it('job outputs, environment url and defaults are the expected tokens', () => {
    const outputs = decodeTemplateToken((load('job_outputs_message.json') as { jobOutputs: unknown }).jobOutputs);
    assert.ok(outputs.type === TokenType.Mapping);
    assert.deepEqual(outputs.entries[0]?.key, { type: TokenType.String, value: 'value', file: 1, line: 16, col: 7 });
    assert.deepEqual(outputs.entries[0]?.value, { type: TokenType.BasicExpression, expression: 'steps.produce.outputs.value', file: 1, line: 16, col: 14 });

    const url = decodeTemplateToken((load('completejob_88_env_message.json') as { actionsEnvironment: { url: unknown } }).actionsEnvironment.url);
    assert.equal(url.type === TokenType.BasicExpression && url.expression, 'steps.deploy.outputs.url');

    const defaults = (load('defaults_run_job.json') as { defaults: unknown[] }).defaults.map((d) => decodeTemplateToken(d));
    assert.equal(defaults.length, 2);
    const run = defaults[0]?.type === TokenType.Mapping ? defaults[0].entries[0] : undefined;
    assert.equal(run?.key.type === TokenType.String && run.key.value, 'run');
    assert.ok(run?.value.type === TokenType.Mapping);
    assert.deepEqual(run.value.entries.map((e) => [e.key.type === TokenType.String && e.key.value, e.value.type === TokenType.String && e.value.value]), [
      ['shell', 'bash'],
      ['working-directory', 'defaults-71-workflow'],
    ]);
  });

  it('contexts keep numbers, booleans and nulls, and look keys up ignoring case', () => {
    const { contextData } = load('incoming_contexts_matrix_0.json') as { contextData: Record<string, unknown> };
    const matrix = decodeContextData(contextData['matrix']);
    const strategy = decodeContextData(contextData['strategy']);
    const inputs = decodeContextData(contextData['inputs']);
    assert.ok(matrix?.type === ContextDataType.Dictionary && strategy?.type === ContextDataType.Dictionary && inputs?.type === ContextDataType.Dictionary);
    assert.deepEqual(getContextValue(matrix, 'NUMBER'), { type: ContextDataType.Number, value: 7 });
    assert.deepEqual(getContextValue(matrix, 'Flag'), { type: ContextDataType.Boolean, value: true });
    assert.deepEqual(getContextValue(strategy, 'job-index'), { type: ContextDataType.Number, value: 0 });
    assert.deepEqual(getContextValue(inputs, 'enabled'), { type: ContextDataType.Boolean, value: false });
    assert.deepEqual(getContextValue(inputs, 'count'), { type: ContextDataType.String, value: '3' });

    const call = (load('incoming_contexts_call.json') as { contextData: Record<string, unknown> }).contextData;
    assert.equal(decodeContextData(call['matrix']), null);
  });
});

describe('job-message corpus: coverage', { skip: corpus.skip }, () => {
  it('exercised the token and context-data kinds the captures contain', () => {
    // Runs after the per-file suites above (node:test runs a file's tests in order).
    for (const type of [TokenType.String, TokenType.Mapping, TokenType.BasicExpression, TokenType.Boolean, TokenType.Number, TokenType.Null]) {
      assert.ok(tokenTypesSeen.has(type), `token type ${type} seen`);
    }
    for (const kind of ['0', '1', '2', '3', '4', 'null']) assert.ok(contextTypesSeen.has(kind), `context data ${kind} seen`);
  });
});
