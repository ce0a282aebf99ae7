/**
 * The package's data types as we feed them: subclassed where the package differs from the
 * runner (numbers format as the runner formats them, strings convert to numbers with the
 * runner's rules, dictionaries accept any key: the package's own drops keys such as
 * `constructor` that exist on `Object.prototype`), and converted from plain data lazily: an
 * object or array is converted member by member when the expression reads it, so `github.ref`
 * does not pay for the event payload.
 */
import { data } from '@actions/expressions';
import { formatNumber, parseNumber } from './number-format.js';
import type { ExpressionObject, ExpressionValue } from './value.js';

export type Data = data.ExpressionData;

interface Pair {
  readonly key: string;
  readonly value: Data;
}

interface Slot {
  readonly key: string;
  value: Data | undefined;
  readonly source: ExpressionValue;
}

export class RunnerNumber extends data.NumberData {
  override coerceString(): string {
    return formatNumber(this.value);
  }
}

export class RunnerString extends data.StringData {
  override number(): number {
    return parseNumber(this.value);
  }
}

/** Case-insensitive dictionary (of two keys differing only in case the first wins, as in the package). */
export class RunnerDictionary extends data.Dictionary {
  private slots: Map<string, Slot> | undefined;

  constructor(private readonly source?: ExpressionObject) {
    super();
  }

  override add(key: string, value: Data): void {
    const slots = this.table();
    const folded = key.toLowerCase();
    if (!slots.has(folded)) slots.set(folded, { key, value, source: null });
  }

  override get(key: string): Data | undefined {
    const slot = this.table().get(key.toLowerCase());
    return slot === undefined ? undefined : valueOf(slot);
  }

  override values(): Data[] {
    return Array.from(this.table().values(), valueOf);
  }

  override pairs(): Pair[] {
    return Array.from(this.table().values(), (slot) => ({ key: slot.key, value: valueOf(slot) }));
  }

  private table(): Map<string, Slot> {
    if (this.slots) return this.slots;
    const slots = new Map<string, Slot>();
    const source = this.source;
    if (source) {
      for (const key of Object.keys(source)) {
        const folded = key.toLowerCase();
        const value = source[key];
        if (value !== undefined && !slots.has(folded)) slots.set(folded, { key, value: undefined, source: value });
      }
    }
    this.slots = slots;
    return slots;
  }
}

function valueOf(slot: Slot): Data {
  return (slot.value ??= toData(slot.source));
}

export class RunnerArray extends data.Array {
  private readonly items: (Data | undefined)[];
  private complete = false;

  constructor(private readonly source: readonly ExpressionValue[] = []) {
    super();
    this.items = new Array<Data | undefined>(source.length);
  }

  override add(value: Data): void {
    this.values().push(value);
  }

  override get(index: number): Data {
    if (index < 0 || index >= this.items.length) return NULL;
    return (this.items[index] ??= toData(this.source[index] ?? null));
  }

  /** The package reads the length from here on every index access: keep it O(1) once filled. */
  override values(): Data[] {
    if (!this.complete) {
      for (let i = 0; i < this.items.length; i++) this.items[i] ??= toData(this.source[i] ?? null);
      this.complete = true;
    }
    return this.items as Data[];
  }
}

export const NULL: Data = new data.Null();
export const TRUE: Data = new data.BooleanData(true);
export const FALSE: Data = new data.BooleanData(false);

export function booleanData(value: boolean): Data {
  return value ? TRUE : FALSE;
}

/** Plain data to the package's types. Contexts are JSON data: no cycles, no functions. */
export function toData(value: ExpressionValue | undefined): Data {
  if (value === null || value === undefined) return NULL;
  switch (typeof value) {
    case 'boolean':
      return booleanData(value);
    case 'number':
      return new RunnerNumber(value);
    case 'string':
      return new RunnerString(value);
    case 'object':
      return isArray(value) ? new RunnerArray(value) : new RunnerDictionary(value);
    default:
      throw new TypeError(`Expression contexts hold JSON data only, not ${typeof value}`);
  }
}

// Array.isArray does not narrow readonly arrays out of a union.
export function isArray(value: object): value is readonly ExpressionValue[] {
  return Array.isArray(value);
}

/** The package's data back to plain data (a copy). */
export function fromData(value: Data): ExpressionValue {
  switch (value.kind) {
    case data.Kind.Null:
      return null;
    case data.Kind.Boolean:
    case data.Kind.Number:
    case data.Kind.String:
      return value.value;
    case data.Kind.Array:
      return value.values().map(fromData);
    default: {
      const pairs = value.pairs();
      return Object.fromEntries(pairs.map((pair) => [pair.key, fromData(pair.value)]));
    }
  }
}
