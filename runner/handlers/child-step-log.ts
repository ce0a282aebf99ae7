/**
 * The log of a step inside a composite action: its lines go to the composite step's log (where
 * workflow commands take effect, masks apply and problem matchers run), except `set-output` and
 * `save-state`, which belong to the nested step: its outputs feed the composite's `steps`
 * context and its state its own post stage.
 */
import { parseAnyCommand } from '../commands/index.js';
import type { AnnotationProperties, StepLog } from './handler-types.js';

const OWN_COMMANDS = new Set(['set-output', 'save-state']);

export class ChildStepLog implements StepLog {
  readonly #outer: StepLog;
  readonly outputs: Record<string, string>;
  readonly state: Record<string, string>;

  constructor(outer: StepLog, outputs: Record<string, string>, state: Record<string, string>) {
    this.#outer = outer;
    this.outputs = outputs;
    this.state = state;
  }

  processLine(line: string, stream?: 'stdout' | 'stderr'): void {
    const command = parseAnyCommand(line, (name) => OWN_COMMANDS.has(name.toLowerCase()));
    const name = command?.name.toLowerCase();
    if (command !== undefined && (name === 'set-output' || name === 'save-state')) {
      const key = command.properties.get('name') ?? '';
      if (key !== '') (name === 'set-output' ? this.outputs : this.state)[key] = command.data;
      return;
    }
    this.#outer.processLine(line, stream);
  }

  write(line: string): void {
    this.#outer.write(line);
  }

  debug(message: string): void {
    this.#outer.debug(message);
  }

  error(message: string, properties?: AnnotationProperties): void {
    this.#outer.error(message, properties);
  }

  warning(message: string, properties?: AnnotationProperties): void {
    this.#outer.warning(message, properties);
  }

  notice(message: string, properties?: AnnotationProperties): void {
    this.#outer.notice(message, properties);
  }
}
