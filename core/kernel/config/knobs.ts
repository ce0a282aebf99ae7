/**
 * Parsers for SVC_* knobs. Numeric knobs never stop the start: an invalid value falls back
 * exactly as the spec's configuration table says, and the fallback is reported as a warning.
 */
export interface KnobReport {
  readonly warnings: string[];
}

const OFF_SPELLINGS = new Set(['off', '0', 'false', 'disabled']);
const ON_SPELLINGS = new Set(['1', 'true', 'on']);

/** On unless set to one of the off spellings (`off`, `0`, `false`, `disabled`). */
export function switchOnByDefault(raw: string | undefined): boolean {
  if (raw === undefined) return true;
  return !OFF_SPELLINGS.has(raw.trim().toLowerCase());
}

/** Off unless set to `1`, `true` or `on`. */
export function switchOffByDefault(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  return ON_SPELLINGS.has(raw.trim().toLowerCase());
}

export interface IntegerKnob {
  readonly name: string;
  readonly defaultValue: number;
  /** Values below are raised to it. */
  readonly min?: number;
  /** Values below `min` count as invalid (use the default) instead of being raised. */
  readonly belowMinIsInvalid?: boolean;
}

function parseInteger(raw: string): number | undefined {
  const text = raw.trim();
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

export function integerKnob(knob: IntegerKnob, raw: string | undefined, report: KnobReport): number {
  if (raw === undefined || raw.trim() === '') return knob.defaultValue;
  const value = parseInteger(raw);
  if (value === undefined) {
    report.warnings.push(`${knob.name}='${raw}' is not an integer; using the default ${knob.defaultValue}`);
    return knob.defaultValue;
  }
  if (knob.min !== undefined && value < knob.min) {
    if (knob.belowMinIsInvalid) {
      report.warnings.push(`${knob.name}=${value} is below ${knob.min}; using the default ${knob.defaultValue}`);
      return knob.defaultValue;
    }
    report.warnings.push(`${knob.name}=${value} is below the minimum; using ${knob.min}`);
    return knob.min;
  }
  return value;
}
