/**
 * GitHub's cross-language workflow-parser corpus (actions/languageservices
 * `workflow-parser/testdata/reader`, 195 files), every file run through our loadWorkflow(),
 * including the cases the TypeScript parser alone does not pass (skipped-tests.txt).
 *
 * A file is YAML documents separated by `---` lines: test options, the workflow, then pairs of
 * (called workflow reference, its content), then the expected result as JSON. As upstream's
 * harness does, the workflow is named `.github/workflows/<file>`, the result is compared as text
 * (JSON, two-space indent), `events` is only part of the result for TypeScript-only cases
 * (`skip: [Go, C#]`, which also expect the language service's strict `on:` checks), and a
 * result with errors keeps only the errors. The options the official parsers understand map to
 * ours; `is-partial-rerun` is a quirk of the C# test harness (it rewrites the file table from
 * its sorted dictionary of referenced workflows), reproduced here.
 */
import { readdir, readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { loadWorkflow, serializeWorkflow } from '../../core/workflow/parser/index.js';
import type { ExperimentalFeatures } from '@actions/expressions/features';
import type {
  LoadedWorkflowFile,
  LoadWorkflowOptions,
  WorkflowLoader,
  WorkflowRef,
} from '../../core/workflow/parser/index.js';
import { corpusRoot } from '../../test/support/corpus.js';
import type { CaseResult, ConformanceSuite } from './suite.js';

const READER_DIR = new URL('workflow-parser/reader/', corpusRoot());

interface CaseOptions {
  readonly 'include-source'?: boolean;
  readonly skip?: readonly string[];
  readonly 'experimental-features'?: ExperimentalFeatures;
  readonly 'max-depth'?: number;
  readonly 'max-file-size'?: number;
  readonly 'max-result-size'?: number;
  readonly 'max-job-limit'?: number;
  readonly 'max-nested-reusable-workflows-depth'?: number;
  readonly 'skip-reusable-workflows'?: boolean;
  readonly 'permissions-policy'?: 'LimitedRead' | 'Write';
  readonly 'is-partial-rerun'?: boolean;
}

export const workflowParserSuite: ConformanceSuite = {
  name: 'workflow-parser',
  corpus: 'workflow-parser',
  async run(): Promise<readonly CaseResult[]> {
    const files = (await readdir(READER_DIR)).filter((name) => /\.ya?ml$/.test(name)).sort();
    const results: CaseResult[] = [];
    for (const file of files) {
      results.push(await runCase(file, await readFile(new URL(file, READER_DIR), 'utf8')));
    }
    return results;
  },
};

async function runCase(file: string, text: string): Promise<CaseResult> {
  const documents = text.split(/\r?\n---\r?\n/);
  const workflow = documents[1];
  const expected = documents[documents.length - 1]?.trim();
  if (documents.length < 3 || workflow === undefined || expected === undefined) {
    return { id: file, passed: false, reason: 'not a test file: fewer than three documents' };
  }
  const options = (parseYaml(documents[0] ?? '') ?? {}) as CaseOptions;
  const skip = (options.skip ?? []).map((name) => name.toLowerCase());
  const typescriptOnly = skip.includes('go') && skip.includes('c#');

  let actual: string;
  try {
    const result = await loadWorkflow({ name: `.github/workflows/${file}`, content: workflow }, {
      ...loadOptions(options, typescriptOnly),
      loader: calledWorkflows(documents.slice(2, -1)),
    });
    const json = serializeWorkflow(result, { includeSource: options['include-source'] ?? false, includeEvents: typescriptOnly });
    const fileTable = json['file-table'];
    if (options['is-partial-rerun'] === true && Array.isArray(fileTable)) {
      json['file-table'] = [...fileTable].sort((a, b) => (String(a) < String(b) ? -1 : 1));
    }
    actual = JSON.stringify(json, null, 2);
  } catch (error) {
    return { id: file, passed: false, reason: `threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` };
  }
  return actual === expected ? { id: file, passed: true } : { id: file, passed: false, reason: firstDifference(expected, actual) };
}

function loadOptions(options: CaseOptions, typescriptOnly: boolean): LoadWorkflowOptions {
  return {
    allowAnchors: false, // the official parsers' default; no case enables anchors
    strictEvents: typescriptOnly,
    ...(options['experimental-features'] === undefined ? {} : { experimentalFeatures: options['experimental-features'] }),
    ...(options['max-depth'] === undefined ? {} : { maxDepth: options['max-depth'] }),
    ...(options['max-file-size'] === undefined ? {} : { maxFileSize: options['max-file-size'] }),
    ...(options['max-result-size'] === undefined ? {} : { maxResultSize: options['max-result-size'] }),
    ...(options['max-job-limit'] === undefined ? {} : { maxJobLimit: options['max-job-limit'] }),
    ...(options['max-nested-reusable-workflows-depth'] === undefined
      ? {}
      : { maxNestedReusableWorkflowsDepth: options['max-nested-reusable-workflows-depth'] }),
    ...(options['skip-reusable-workflows'] === undefined ? {} : { skipReusableWorkflows: options['skip-reusable-workflows'] }),
    ...(options['permissions-policy'] === undefined ? {} : { permissionsPolicy: options['permissions-policy'] }),
  };
}

/** The called workflows of a case, by the reference string they are listed under. */
function calledWorkflows(pairs: readonly string[]): WorkflowLoader {
  const files = new Map<string, LoadedWorkflowFile>();
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const name = (pairs[i] ?? '').trim();
    files.set(name, { name, content: pairs[i + 1] ?? '' });
  }
  return {
    read: (ref: WorkflowRef) => Promise.resolve(files.get(referenceOf(ref))),
  };
}

function referenceOf(ref: WorkflowRef): string {
  return ref.repository === undefined ? `./${ref.path}` : `${ref.repository}/${ref.path}@${ref.ref ?? ''}`;
}

function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((text, index) => text !== got[index]);
  const at = line === -1 ? want.length : line;
  const clip = (text: string | undefined): string => (text === undefined ? '<end>' : text.trim().slice(0, 160));
  return `line ${at + 1}: expected ${clip(want[at])} | got ${clip(got[at])}`;
}
