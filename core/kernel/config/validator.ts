import { Ajv, type ValidateFunction } from 'ajv';

let shared: Ajv | undefined;

/**
 * Compiles a JSON Schema for config-file validation with one Ajv instance, created on first
 * use (a host without an operator config file never pays for it). `verbose` keeps each error's
 * parent schema so messages can list the allowed keys and values.
 */
export function compileSchema<T>(schema: object): () => ValidateFunction<T> {
  let compiled: ValidateFunction<T> | undefined;
  return () => {
    shared ??= new Ajv({ allErrors: true, strict: false, verbose: true });
    compiled ??= shared.compile<T>(schema);
    return compiled;
  };
}
