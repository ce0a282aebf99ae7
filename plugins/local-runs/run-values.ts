import { runSuppliedLabel, type SelectionRequest } from '../../core/engine/index.js';
import { InputError } from '../../core/kernel/index.js';
import type { JobValues } from '../../core/ports/index.js';
import type { RunRequest } from './run-request.js';

/**
 * What a local submission's run is planned and kept with: its `vars` (global < repository <
 * run-supplied) and the secret names its workflows can read, from the secrets plugin; and its
 * run-supplied values sealed under the secrets key, stored with the run and erased when it ends.
 * Without the secrets plugin a run has no secrets and no variables, and one that brings some is
 * refused rather than run without them.
 */
export async function runValuesFor(run: RunRequest, jobValues: JobValues | undefined): Promise<Pick<SelectionRequest, 'vars' | 'secretNames' | 'supplied'>> {
  const supplied = { secrets: run.secrets ?? {}, vars: run.vars ?? {} };
  const secretNames = Object.keys(supplied.secrets).sort();
  const varNames = Object.keys(supplied.vars).sort();
  if (jobValues === undefined) {
    if (secretNames.length + varNames.length === 0) return {};
    throw new InputError(
      `run-supplied secrets and variables need the secrets plugin, which is not enabled on this server (plugins.toml); run without --secret/--var (given: ${[...secretNames, ...varNames].join(', ')}) or enable it`,
      { code: 'secrets_unavailable' },
    );
  }
  const values = await jobValues.forRun(run.repository, supplied);
  if (secretNames.length + varNames.length === 0) return { vars: values.vars, secretNames: values.secretNames };
  const sealed = await jobValues.seal(runSuppliedLabel(run.repository), JSON.stringify(supplied));
  return { vars: values.vars, secretNames: values.secretNames, supplied: { secretNames, varNames, sealed } };
}
