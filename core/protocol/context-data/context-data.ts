/** The runner's numeric PipelineContextData type codes (the `t` member on the wire). */
export const ContextDataType = {
  String: 0,
  Array: 1,
  Dictionary: 2,
  Boolean: 3,
  Number: 4,
  CaseSensitiveDictionary: 5,
} as const;

export type ContextDataTypeCode = (typeof ContextDataType)[keyof typeof ContextDataType];

export interface StringContextData {
  readonly type: typeof ContextDataType.String;
  readonly value: string;
}

/** Items may be null (the runner's null reference; JSON `null`). */
export interface ArrayContextData {
  readonly type: typeof ContextDataType.Array;
  readonly items: readonly (PipelineContextData | null)[];
}

export interface ContextDataEntry {
  readonly key: string;
  readonly value: PipelineContextData | null;
}

/**
 * Keys compare ignoring case (the runner's ordinal-ignore-case comparer), order is kept. Use
 * the helpers in dictionary.ts to look keys up and set them as the runner does.
 */
export interface DictionaryContextData {
  readonly type: typeof ContextDataType.Dictionary;
  readonly entries: readonly ContextDataEntry[];
}

/** Keys compare exactly; the runner uses it for `env` where the OS is case-sensitive. */
export interface CaseSensitiveDictionaryContextData {
  readonly type: typeof ContextDataType.CaseSensitiveDictionary;
  readonly entries: readonly ContextDataEntry[];
}

export interface BooleanContextData {
  readonly type: typeof ContextDataType.Boolean;
  readonly value: boolean;
}

/** A double, as in the runner. */
export interface NumberContextData {
  readonly type: typeof ContextDataType.Number;
  readonly value: number;
}

export type AnyDictionaryContextData = DictionaryContextData | CaseSensitiveDictionaryContextData;

/** One value of an expression context. Absent values are `null`, as in the runner. */
export type PipelineContextData =
  | StringContextData
  | ArrayContextData
  | AnyDictionaryContextData
  | BooleanContextData
  | NumberContextData;

export function contextString(value: string): StringContextData {
  return { type: ContextDataType.String, value };
}

export function contextBoolean(value: boolean): BooleanContextData {
  return { type: ContextDataType.Boolean, value };
}

export function contextNumber(value: number): NumberContextData {
  return { type: ContextDataType.Number, value };
}

export function contextArray(items: readonly (PipelineContextData | null)[]): ArrayContextData {
  return { type: ContextDataType.Array, items };
}

export function isDictionaryContextData(value: PipelineContextData | null): value is AnyDictionaryContextData {
  return (
    value !== null &&
    (value.type === ContextDataType.Dictionary || value.type === ContextDataType.CaseSensitiveDictionary)
  );
}
