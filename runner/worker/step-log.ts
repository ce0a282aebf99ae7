/**
 * A step's log as handlers see it (handlers' StepLog): process output goes through the job's
 * command interpreter (workflow commands) and problem matchers (OutputManager), and the
 * resulting effects are applied to the step and the job: masks, outputs, env, path, state,
 * annotations, groups, debug lines, matcher changes, and a failed command result.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  unableToProcessCommandMessage,
  type AnnotationEffect,
  type CommandEffect,
  type CommandInterpreter,
  type ProblemMatcherStream,
  type ProblemMatchers,
} from '../commands/index.js';
import type { AnnotationProperties, StepLog } from '../handlers/index.js';
import type { LogMasker } from '../reporting/index.js';
import type { JobState } from './job-state.js';
import type { RecordContext } from './record-context.js';

export interface StepLogDeps {
  readonly record: RecordContext;
  readonly interpreter: CommandInterpreter;
  readonly matchers: ProblemMatchers;
  readonly masker: LogMasker;
  readonly job: JobState;
  /** The step's id in the `steps` context. */
  readonly contextName: string | undefined;
  /** The step's saved state (`save-state`). */
  readonly state: Record<string, string>;
  readonly workspace: string;
  readonly debug: boolean;
}

function propertiesOf(effect: AnnotationEffect): AnnotationProperties {
  return {
    ...(effect.file === undefined ? {} : { file: effect.file }),
    ...(effect.line === undefined ? {} : { line: effect.line }),
    ...(effect.col === undefined ? {} : { col: effect.col }),
    ...(effect.endLine === undefined ? {} : { endLine: effect.endLine }),
    ...(effect.endColumn === undefined ? {} : { endColumn: effect.endColumn }),
    ...(effect.title === undefined ? {} : { title: effect.title }),
  };
}

export class WorkerStepLog implements StepLog {
  readonly #deps: StepLogDeps;
  readonly #stderr: ProblemMatcherStream;
  /** A command failed (the runner's CommandResult): the step fails even if its process succeeds. */
  commandFailed = false;

  constructor(deps: StepLogDeps) {
    this.#deps = deps;
    deps.matchers.beginStep();
    this.#stderr = deps.matchers.openStream();
  }

  /** Stops following the job's matcher changes (call when the step ends). */
  close(): void {
    this.#stderr.close();
  }

  processLine(line: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    const { interpreter, record } = this.#deps;
    const processed = interpreter.process(line);
    if (!processed.handled && processed.output !== undefined) {
      const match = stream === 'stderr' ? this.#stderr.match(processed.output) : this.#deps.matchers.match(processed.output);
      if (match !== undefined) {
        record.addIssue(match.level, match.message, { properties: propertiesOf(match), logMessage: processed.output });
        this.#apply(processed.effects, line);
        return;
      }
    }
    if (processed.output !== undefined) record.write(processed.output);
    this.#apply(processed.effects, line);
  }

  write(line: string): void {
    this.#deps.record.write(line);
  }

  debug(message: string): void {
    if (!this.#deps.debug) return;
    for (const line of message.split(/\r?\n/)) this.#deps.record.write(`##[debug]${line}`);
  }

  error(message: string, properties?: AnnotationProperties): void {
    this.#deps.record.error(message, properties);
  }

  warning(message: string, properties?: AnnotationProperties): void {
    this.#deps.record.warning(message, properties);
  }

  notice(message: string, properties?: AnnotationProperties): void {
    this.#deps.record.notice(message, properties);
  }

  #apply(effects: readonly CommandEffect[], line: string): void {
    const { record, job, masker } = this.#deps;
    for (const effect of effects) {
      switch (effect.kind) {
        case 'add-mask':
          masker.add(effect.value);
          break;
        case 'set-output':
          job.steps.setOutput(this.#deps.contextName, effect.name, effect.value);
          break;
        case 'set-env':
          job.env.set(effect.name, effect.value);
          break;
        case 'add-path':
          job.addPath(effect.path);
          break;
        case 'save-state':
          this.#deps.state[effect.name] = effect.value;
          break;
        case 'annotation':
          record.addIssue(effect.level, effect.message, { properties: propertiesOf(effect) });
          break;
        case 'debug':
          this.debug(effect.message);
          break;
        case 'group':
          record.write(`##[group]${effect.title}`);
          break;
        case 'endgroup':
          record.write('##[endgroup]');
          break;
        case 'add-matcher':
        case 'remove-matcher-file':
          this.#matcherFile(effect.kind, effect.file, line);
          break;
        case 'remove-matcher':
          this.#deps.matchers.remove(effect.owner);
          break;
        case 'echo':
          break;
        case 'warning-message':
          record.warning(effect.message);
          break;
        case 'error-message':
          record.error(effect.message);
          break;
        case 'command-failed':
          this.commandFailed = true;
          break;
      }
    }
  }

  #matcherFile(kind: 'add-matcher' | 'remove-matcher-file', file: string, line: string): void {
    const path = isAbsolute(file) ? file : join(this.#deps.workspace, file);
    try {
      const json = readFileSync(path, 'utf8');
      if (kind === 'add-matcher') this.#deps.matchers.addFromFile(json, path);
      else this.#deps.matchers.removeFromFile(json, path);
    } catch (error) {
      this.#deps.record.error(unableToProcessCommandMessage(line));
      this.#deps.record.error(error instanceof Error ? error.message : String(error));
      this.commandFailed = true;
    }
  }
}
