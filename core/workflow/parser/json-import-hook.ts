/**
 * Node module-customization hook (runs in Node's loader thread, see register-json-hook.ts).
 *
 * `@actions/workflow-parser`'s ESM build imports its schema files as `import X from "./x.json"`
 * without `with { type: "json" }`. Node 20 refuses such an import (ERR_IMPORT_ASSERTION_TYPE_MISSING), so
 * the parser cannot load under plain `node`. This hook adds the missing attribute for exactly
 * those files; every other module, JSON or not, goes through unchanged (we do not widen what
 * Node accepts for our own code).
 */
import type { LoadHook } from 'node:module';

/** The parser's own JSON files: `.../@actions/workflow-parser/dist/<name>.json`, any install layout. */
const PARSER_JSON = /\/@actions\/workflow-parser\/dist\/[^/?#]+\.json(?:[?#].*)?$/;

export function isParserJsonUrl(url: string): boolean {
  return url.startsWith('file:') && PARSER_JSON.test(url);
}

export const load: LoadHook = (url, context, nextLoad) => {
  if (isParserJsonUrl(url) && context.importAttributes.type === undefined) {
    return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
  }
  return nextLoad(url, context);
};
