import type { JsonObject } from '../../protocol/index.js';

/** Plain data, as the parser layer (after evaluating `${{ }}`) hands `strategy` over. */
export type { JsonObject, JsonPrimitive, JsonValue } from '../../protocol/index.js';

/** One job of an expanded matrix. */
export interface MatrixCombination {
  /**
   * The `matrix` context of the job: vectors in declaration order, then values added by
   * `include`. (Integer-like keys come first, as in any JavaScript object.)
   */
  readonly values: JsonObject;
  /**
   * The keys whose values make the job's display name: the vector keys for a combination of the
   * cross product (values added by `include` are not shown), every key for a combination that an
   * `include` entry added on its own.
   */
  readonly nameKeys: readonly string[];
  /** `product`: from the cross product; `include`: an include entry that extended nothing. */
  readonly origin: 'product' | 'include';
}

export type MatrixExpansion =
  | { readonly ok: true; readonly combinations: readonly MatrixCombination[] }
  | { readonly ok: false; readonly errors: readonly string[] };
