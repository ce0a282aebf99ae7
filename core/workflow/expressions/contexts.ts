/**
 * Contexts handed to an evaluation as plain data. They are converted to the package's data
 * types lazily, member by member as expressions read them, and a conversion is kept: prepare
 * contexts once and reuse them across evaluations (every `if:` of a job reads the same
 * `github`), and treat the data as frozen afterwards. Plain contexts passed straight to an
 * evaluation are converted (lazily) for that evaluation only.
 */
import { allowedNames, isContextName, type AllowedNames } from './allowed-names.js';
import { RunnerDictionary, type Data } from './data.js';
import type { ExpressionValue } from './value.js';

export type ExpressionContexts = Readonly<Record<string, ExpressionValue>>;

export class PreparedContexts {
  /** The context names as given. */
  readonly names: readonly string[];
  private readonly data: RunnerDictionary;
  private readonly defaults = new Map<string, AllowedNames>();

  constructor(values: ExpressionContexts) {
    this.names = Object.keys(values);
    this.data = new RunnerDictionary(values);
  }

  /** The context's data (case-insensitive name), or undefined when there is no such context. */
  get(name: string): Data | undefined {
    return this.data.get(name);
  }

  /** These contexts plus the given function signatures, built once per signature list. */
  allowedWith(functions: readonly string[]): AllowedNames {
    const id = functions.join(',');
    let allowed = this.defaults.get(id);
    if (!allowed) {
      allowed = allowedNames([...this.names.filter(isContextName), ...functions]);
      this.defaults.set(id, allowed);
    }
    return allowed;
  }
}

export function prepareContexts(contexts: ExpressionContexts | PreparedContexts): PreparedContexts {
  return contexts instanceof PreparedContexts ? contexts : new PreparedContexts(contexts);
}
