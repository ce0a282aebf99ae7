/**
 * Which producer's spelling an encoder imitates. Both are read by the official runner; they
 * differ only where the runner's reader is lenient.
 *
 * - `runner`: what actions/runner itself writes (its Newtonsoft converters under the VSS
 *   camelCase settings): scalar tokens without position as bare JSON scalars, mapping entries as
 *   `key`/`value`, empty `seq`/`map`/`a`/`d` left out.
 * - `github`: what github.com's run service sends (see the job-message captures in
 *   shared/corpus/job-messages): string tokens always as `{"type":0,"lit":…}` objects, mapping
 *   entries as `Key`/`Value`, empty context-data arrays and dictionaries written as `[]`.
 *   Where the captures show nothing (empty `seq`/`map`, bare booleans/numbers), it writes what the
 *   runner writes.
 */
export type WireStyle = 'runner' | 'github';

export interface EncodeOptions {
  /** Defaults to `runner`. A server imitating github.com should pass `github`. */
  readonly style?: WireStyle;
}

export interface DecodeOptions {
  /** Prefix for error paths, e.g. `steps[2].inputs`; defaults to `$`. */
  readonly path?: string;
}
