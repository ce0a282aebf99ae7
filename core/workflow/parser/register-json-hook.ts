/**
 * Registers json-import-hook.ts with Node's module loader, once per process.
 *
 * The hook must be in place before anything *loads* one of the parser modules that import JSON:
 * the package root `@actions/workflow-parser`, `workflows/workflow-schema`, `workflows/workflow-parser`,
 * `model/convert` (and the `actions/*` modules). ESM loads a whole static import graph before it
 * runs any of it, so calling this from a module that also statically imports those is too late.
 * This package never imports them statically: upstream-modules.ts registers the hook and then
 * `import()`s them, so `loadWorkflow()` needs no preparation. Code elsewhere that wants to
 * import the parser root statically preloads json-hook-preload.ts with `node --import`.
 */
import { register } from 'node:module';
// Node loads the hook module by URL in its loader thread; this import keeps it in the build.
import type { load as _hook } from './json-import-hook.js';

const REGISTERED = Symbol.for('svc.workflow-parser.json-import-hook');

// Set to true by the production bundle (scripts/build.mjs), which inlines the parser's JSON:
// there is no hook module beside the bundle, and none is needed.
declare const __SVC_BUNDLED__: boolean | undefined;

export function registerJsonImportHook(): void {
  const flags = globalThis as { [REGISTERED]?: true };
  if (flags[REGISTERED] || (typeof __SVC_BUNDLED__ !== 'undefined' && __SVC_BUNDLED__)) return;
  register(new URL('./json-import-hook.js', import.meta.url));
  flags[REGISTERED] = true;
}
