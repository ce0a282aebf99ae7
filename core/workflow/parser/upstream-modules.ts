/**
 * The two `@actions/workflow-parser` modules that import the parser's JSON schema, loaded on
 * first use after the JSON import hook is registered (see register-json-hook.ts for why they
 * cannot be imported statically). Everything else of the parser is imported normally.
 */
import type { convertWorkflowTemplate as ConvertWorkflowTemplate } from '@actions/workflow-parser/model/convert';
import type { TemplateSchema } from '@actions/workflow-parser/templates/schema/template-schema';
import { registerJsonImportHook } from './register-json-hook.js';

export interface JsonBackedModules {
  readonly schema: TemplateSchema;
  readonly convertWorkflowTemplate: typeof ConvertWorkflowTemplate;
}

let pending: Promise<JsonBackedModules> | undefined;

export function loadJsonBackedModules(): Promise<JsonBackedModules> {
  pending ??= importModules();
  return pending;
}

async function importModules(): Promise<JsonBackedModules> {
  registerJsonImportHook();
  const [schemaModule, convertModule] = await Promise.all([
    import('@actions/workflow-parser/workflows/workflow-schema'),
    import('@actions/workflow-parser/model/convert'),
  ]);
  return { schema: schemaModule.getWorkflowSchema(), convertWorkflowTemplate: convertModule.convertWorkflowTemplate };
}
