/**
 * GitHub's cross-language expression corpus (actions/languageservices `expressions/testdata`),
 * every case run through our expression layer, including those the TypeScript package itself
 * skips. As in the upstream harness, the allowed context names are the case's context names,
 * an expected error passes when its kind matches and our message contains the expected text
 * (the corpus stores some messages shortened), and a result passes when its kind matches and
 * its value is deeply equal (here also telling -0 from 0).
 */
import { readdir, readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import {
  evaluateExpression,
  ExpressionError,
  kindOf,
  type ExpressionContexts,
  type ExpressionValue,
} from '../../core/workflow/expressions/index.js';
import { corpusRoot } from '../../test/support/corpus.js';
import type { CaseResult, ConformanceSuite } from './suite.js';

interface CorpusCase {
  readonly expr: string;
  readonly contexts?: ExpressionContexts;
  readonly result?: { readonly kind: string; readonly value: ExpressionValue };
  readonly err?: { readonly kind: string; readonly value: string };
}

type CorpusFile = Readonly<Record<string, readonly CorpusCase[]>>;

const EXPRESSIONS_DIR = new URL('expressions/', corpusRoot());

export const expressionsSuite: ConformanceSuite = {
  name: 'expressions',
  corpus: 'expressions',
  async run(): Promise<readonly CaseResult[]> {
    const files = (await readdir(EXPRESSIONS_DIR)).filter((name) => name.endsWith('.json')).sort();
    const results: CaseResult[] = [];
    for (const file of files) {
      const corpus = JSON.parse(await readFile(new URL(file, EXPRESSIONS_DIR), 'utf8')) as CorpusFile;
      for (const [group, cases] of Object.entries(corpus)) {
        cases.forEach((testCase, index) => {
          results.push(runCase(`${file}#${group}[${index}]`, testCase));
        });
      }
    }
    return results;
  },
};

function runCase(id: string, testCase: CorpusCase): CaseResult {
  let actual: ExpressionValue;
  try {
    actual = evaluateExpression(testCase.expr, testCase.contexts ?? {});
  } catch (error) {
    if (!(error instanceof ExpressionError)) {
      return fail(id, `threw ${String(error)}`);
    }
    const expected = testCase.err;
    if (!expected) return fail(id, `unexpected ${error.kind} error: ${error.message}`);
    if (expected.kind !== error.kind || !error.message.includes(expected.value)) {
      return fail(id, `expected ${expected.kind} error "${expected.value}", got ${error.kind} error "${error.message}"`);
    }
    return { id, passed: true };
  }
  if (testCase.err) {
    return fail(id, `expected ${testCase.err.kind} error "${testCase.err.value}", got ${show(actual)}`);
  }
  const expected = testCase.result;
  if (!expected) return fail(id, 'case has neither result nor err');
  if (kindOf(actual) !== expected.kind || !isDeepStrictEqual(actual, expected.value)) {
    return fail(id, `expected ${expected.kind} ${show(expected.value)}, got ${kindOf(actual)} ${show(actual)}`);
  }
  return { id, passed: true };
}

function fail(id: string, reason: string): CaseResult {
  return { id, passed: false, reason: reason.length > 400 ? `${reason.slice(0, 400)}...` : reason };
}

function show(value: ExpressionValue): string {
  return Object.is(value, -0) ? '-0' : JSON.stringify(value);
}
