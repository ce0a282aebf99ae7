/**
 * The schemas of `@actions/workflow-parser` (workflow-v1.0.json, action-v1.0.json) as the
 * package's own TemplateSchema objects, loaded synchronously.
 *
 * Why not `getWorkflowSchema()`: the package's modules that hold the schemas import their JSON
 * without import attributes, which plain Node refuses (ERR_IMPORT_ASSERTION_TYPE_MISSING); the
 * parser works around it with an async loader hook. Template evaluation must be synchronous and
 * must load under plain Node, so we read the very same JSON files through `require` (which needs
 * no attributes) next to the package's resolved entry point, and build the schema with the
 * package's own reader. Nothing is hand-copied: the schema stays the package's.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { JSONObjectReader } from '@actions/workflow-parser/templates/json-object-reader';
import { TemplateSchema } from '@actions/workflow-parser/templates/schema/index';

export type ParserSchemaKind = 'workflow' | 'action';

const FILES: Readonly<Record<ParserSchemaKind, string>> = {
  workflow: './workflow-v1.0.min.json',
  action: './action-v1.0.min.json',
};

const loaded = new Map<ParserSchemaKind, TemplateSchema>();

/** The package's schema of the given kind, built once per process. */
export function parserSchema(kind: ParserSchemaKind): TemplateSchema {
  let schema = loaded.get(kind);
  if (schema === undefined) {
    const entry = import.meta.resolve('@actions/workflow-parser');
    const require = createRequire(import.meta.url);
    const json: unknown = require(fileURLToPath(new URL(FILES[kind], entry)));
    schema = TemplateSchema.load(new JSONObjectReader(undefined, JSON.stringify(json)));
    loaded.set(kind, schema);
  }
  return schema;
}
