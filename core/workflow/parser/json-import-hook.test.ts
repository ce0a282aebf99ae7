import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { LoadHookContext } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import ts from 'typescript';
import { isParserJsonUrl, load } from './json-import-hook.js';
import { loadJsonBackedModules } from './upstream-modules.js';

const PARSER_JSON = 'file:///srv/app/node_modules/@actions/workflow-parser/dist/workflow-v1.0.min.json';
const PROJECT_NODE_MODULES = new URL('../../../node_modules', import.meta.url);

function hookContext(type?: string): LoadHookContext {
  const importAttributes = type === undefined ? {} : { type };
  return { conditions: ['node', 'import'], format: undefined, importAttributes, importAssertions: importAttributes };
}

/** Runs the hook with a recording `nextLoad`; returns the context it passed on. */
async function passedOn(url: string, context: LoadHookContext): Promise<Partial<LoadHookContext> | undefined> {
  let seen: Partial<LoadHookContext> | undefined;
  await load(url, context, (_url, next) => {
    seen = next;
    return { format: 'json', source: '{}' };
  });
  return seen;
}

describe('JSON import hook', () => {
  it('recognises the parser JSON files in any install layout, and nothing else', () => {
    assert.ok(isParserJsonUrl(PARSER_JSON));
    assert.ok(isParserJsonUrl('file:///x/node_modules/.pnpm/@actions+workflow-parser@0.3.61/node_modules/@actions/workflow-parser/dist/action-v1.0.min.json'));
    assert.ok(!isParserJsonUrl('file:///srv/app/config/workflow-v1.0.min.json'));
    assert.ok(!isParserJsonUrl('file:///srv/app/node_modules/@actions/workflow-parser/package.json'));
    assert.ok(!isParserJsonUrl('https://example.com/node_modules/@actions/workflow-parser/dist/x.json'));
  });

  it('adds `type: json` to the parser JSON imports only', async () => {
    assert.deepEqual((await passedOn(PARSER_JSON, hookContext()))?.importAttributes, { type: 'json' });
    assert.deepEqual((await passedOn('file:///srv/app/data.json', hookContext()))?.importAttributes, {});
    assert.deepEqual((await passedOn(PARSER_JSON, hookContext('json')))?.importAttributes, { type: 'json' });
  });

  it('lets the parser modules that import JSON load under tsx', async () => {
    const modules = await loadJsonBackedModules();
    assert.equal(typeof modules.convertWorkflowTemplate, 'function');
    assert.ok(modules.schema.getDefinition('workflow-root'));
  });

  describe('under plain node, on compiled JavaScript', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-json-hook-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    symlinkSync(PROJECT_NODE_MODULES, join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    for (const name of ['json-import-hook', 'register-json-hook']) {
      const source = readFileSync(new URL(`./${name}.ts`, import.meta.url), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: true },
      });
      writeFileSync(join(dir, `${name}.js`), outputText);
    }

    function runNode(script: string): { status: number | null; output: string } {
      writeFileSync(join(dir, 'main.mjs'), script);
      const env = { ...process.env, NODE_OPTIONS: '' };
      const result = spawnSync(process.execPath, ['main.mjs'], { cwd: dir, env, encoding: 'utf8' });
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    }

    it('cannot load @actions/workflow-parser without the hook', () => {
      const { status, output } = runNode("await import('@actions/workflow-parser');\n");
      assert.notEqual(status, 0);
      assert.match(output, /ERR_IMPORT_(ASSERTION_TYPE|ATTRIBUTE)_MISSING/);
    });

    it('loads it once the hook is registered, and parses a workflow', () => {
      const { status, output } = runNode(
        [
          "const { registerJsonImportHook } = await import('./register-json-hook.js');",
          'registerJsonImportHook();',
          'registerJsonImportHook(); // a second call is a no-op',
          "const { parseWorkflow, NoOperationTraceWriter } = await import('@actions/workflow-parser');",
          "const parsed = parseWorkflow({ name: 'w.yml', content: 'on: push\\njobs:\\n  a:\\n    runs-on: x\\n    steps:\\n      - run: echo\\n' }, new NoOperationTraceWriter());",
          "console.log(parsed.context.errors.getErrors().length === 0 ? 'parsed' : 'errors');",
        ].join('\n'),
      );
      assert.equal(status, 0, output);
      assert.match(output, /parsed/);
    });
  });
});
