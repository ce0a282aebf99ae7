import { parsePositiveId } from '../../../core/kernel/cli/index.js';

export { runCommand } from '../../../core/kernel/cli/index.js';

export function parseRunId(raw: string | undefined): number {
  return parsePositiveId(raw, 'run id', 'svc status 42');
}
