import type { TemplateContext } from '@actions/workflow-parser/templates/template-context';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type { ErrorSite } from '../error-collector.js';

/** Where GitHub reports an error raised at a token. */
export function siteOf(context: TemplateContext, token: TemplateToken): ErrorSite {
  const file = token.file === undefined ? undefined : context.getFileName(token.file);
  return {
    ...(file === undefined ? {} : { file }),
    ...(token.line === undefined ? {} : { line: token.line }),
    ...(token.col === undefined ? {} : { column: token.col }),
  };
}
