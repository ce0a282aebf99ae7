import type { Writable } from 'node:stream';
import { promptHidden, resolveConnection, type CommandContext } from '../../../core/kernel/cli/index.js';
import { errorMessage, EXIT, exitCodeForConclusion, exitCodeForError } from './exit-codes.js';
import { followRun, type RunFollower } from './follow-run.js';
import { findLocalRepository, resolveWorkflowFile } from './local-repository.js';
import { readPayloadFile } from './payload-file.js';
import { parseRunOptions } from './run-options.js';
import { describeRunValues, resolveRunValues } from './run-values.js';
import { submitBody, submitRun } from './submit-local-run.js';
import { describeUpload, uploadSnapshot } from './upload-snapshot.js';

/** What `svc run` does (run-command.ts declares it): the run's commit to the server, submit, follow; returns the exit code. */
export async function runLocal(raw: Readonly<Record<string, unknown>>, context: CommandContext, cwd: string): Promise<number> {
  const { stdout, stderr } = context;
  let follower: RunFollower | undefined;
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts === 1 && follower) {
      void follower.cancel();
      return;
    }
    follower?.stop();
    stderr.write('svc run: stopped following; the run goes on on the server (svc status shows it)\n');
    process.exit(EXIT.interrupted);
  };
  try {
    const flags = parseRunOptions(raw);
    const repository = await findLocalRepository(cwd);
    const workflow = await resolveWorkflowFile(repository, flags.file, cwd);
    const payload = flags.payloadFile === undefined ? undefined : await readPayloadFile(flags.payloadFile, cwd);
    // Before anything is sent: a missing value stops the run here, and a prompt comes first.
    const values = await resolveRunValues(flags.values, {
      cwd,
      env: context.env,
      ...(process.stdin.isTTY ? { prompt: (text: string) => promptHidden(text, stderr) } : {}),
    });
    const connection = await resolveConnection(context.env, cwd);

    const uploaded = await uploadSnapshot(connection, repository);
    for (const warning of uploaded.warnings) stderr.write(`svc run: warning: ${warning}\n`);
    note(stderr, describeUpload(uploaded, repository));
    const supplied = describeRunValues(values);
    if (supplied !== '') note(stderr, `run-supplied ${supplied}`);
    const run = await submitRun(connection, submitBody(repository.name, uploaded.sha, workflow, flags, payload, values));
    for (const warning of run.warnings) stderr.write(`svc run: warning: ${warning}\n`);
    note(stderr, `run ${run.run_id} of ${workflow} (${flags.event}): ${run.url}`);

    process.on('SIGINT', onInterrupt);
    follower = followRun({
      connection,
      runId: run.run_id,
      workflow,
      json: flags.json,
      terminal: terminalSize(stdout),
      stdout,
      stderr,
    });
    const state = await follower.done;
    if (interrupts > 0) return EXIT.interrupted;
    return exitCodeForConclusion(state.conclusion ?? state.status);
  } catch (error) {
    stderr.write(`svc run: ${errorMessage(error)}\n`);
    return interrupts > 0 ? EXIT.interrupted : exitCodeForError(error);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

function note(stderr: Writable, text: string): void {
  stderr.write(`svc run: ${text}\n`);
}

/** The live view needs a terminal; anything else (a pipe, a file, CI) gets one line per change. */
function terminalSize(stdout: Writable): (() => { columns: number; rows: number }) | undefined {
  const tty = stdout as Writable & { isTTY?: boolean; columns?: number; rows?: number };
  if (tty.isTTY !== true) return undefined;
  // A pseudo-terminal without a size says 0 by 0.
  return () => ({ columns: tty.columns || 80, rows: tty.rows || 24 });
}
