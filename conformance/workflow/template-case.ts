/** One case of the templates suite: what `run` must return, or the error it must throw. */
export interface TemplateCase {
  readonly id: string;
  readonly run: () => unknown;
  /** The value `run` must return. */
  readonly expected?: unknown;
  /** Or the message it must throw. */
  readonly error?: string | RegExp;
}
