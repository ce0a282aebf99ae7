/**
 * Fix "number-to-string-g15": when a number stands where the schema wants a string (`env:`,
 * `with:`, matrix values used as text), GitHub's parser writes it with .NET's `G15` format
 * (`0.84551240822557006` → `0.84551240822557`, `1587106672383762434` → `1.58710667238376E+18`,
 * `.inf` → `Infinity`). The template reader converts through `toString()`, so our YAML reader
 * produces number tokens whose `toString()` is G15.
 */
import { NumberToken } from '@actions/workflow-parser/templates/tokens/index';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import { formatRunnerNumber } from '../../../protocol/index.js';

export class DotNetNumberToken extends NumberToken {
  override toString(): string {
    return formatRunnerNumber(this.value);
  }

  override clone(omitSource?: boolean): TemplateToken {
    return omitSource
      ? new DotNetNumberToken(undefined, undefined, this.value, this.definitionInfo)
      : new DotNetNumberToken(this.file, this.range, this.value, this.definitionInfo);
  }
}
