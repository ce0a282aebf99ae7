/**
 * "Complete job" (JobExtension.FinalizeJob): the job outputs evaluated against the final `steps`
 * and `env` (an empty value is skipped, a value holding a secret is dropped with a warning), the
 * environment URL likewise, then the processes the steps left behind are ended. A failed
 * evaluation fails this record and the job (§4.10).
 */
import { TokenType } from '../../core/protocol/index.js';
import { terminateOrphanProcesses } from '../handlers/index.js';
import { evaluateEnvironmentUrl, evaluateJobOutputs } from './templates/evaluate-fields.js';
import type { WorkerJob } from './worker-job.js';

export interface JobEnd {
  readonly outputs: Record<string, string>;
  readonly environment?: { readonly name: string; readonly url?: string };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function completeJobRecord(job: WorkerJob): JobEnd {
  const record = job.createRecord('Complete job', 'runner', false);
  record.start();
  const scope = { contexts: job.stepContexts(job.state.envObject()), fileTable: job.message.fileTable, hashFiles: job.hashFiles };
  const outputs: Record<string, string> = {};
  const { jobOutputs, actionsEnvironment } = job.message;
  if (jobOutputs !== undefined && jobOutputs.type !== TokenType.Null) {
    try {
      record.write('Evaluate and set job outputs');
      for (const [name, value] of Object.entries(evaluateJobOutputs(jobOutputs, scope))) {
        if (value === '') {
          record.debug(`Skip output '${name}' since it's empty`);
        } else if (job.masker.containsSecret(value)) {
          record.warning(`Skip output '${name}' since it may contain secret.`);
        } else {
          record.write(`Set output '${name}'`);
          outputs[name] = value;
        }
      }
    } catch (error) {
      record.result = 'failed';
      record.error('Fail to evaluate job outputs');
      record.error(messageOf(error));
      job.state.merge('failed');
    }
  }

  let environment: JobEnd['environment'];
  if (actionsEnvironment !== undefined) {
    environment = { name: actionsEnvironment.name };
    if (actionsEnvironment.url !== undefined && actionsEnvironment.url.type !== TokenType.Null) {
      try {
        record.write('Evaluate and set environment url');
        const url = evaluateEnvironmentUrl(actionsEnvironment.url, scope);
        if (job.masker.containsSecret(url)) {
          record.warning(`Skip setting environment url as environment '${actionsEnvironment.name}' may contain secret.`);
        } else {
          record.write(`Evaluated environment url: ${url}`);
          environment = { name: actionsEnvironment.name, url };
        }
      } catch (error) {
        record.result = 'failed';
        record.error('Failed to evaluate environment url');
        record.error(messageOf(error));
        job.state.merge('failed');
      }
    }
  }

  record.write('Cleaning up orphan processes');
  for (const group of terminateOrphanProcesses()) record.write(`Terminate orphan process: pid (${group})`);
  record.complete();
  return { outputs, ...(environment === undefined ? {} : { environment }) };
}
