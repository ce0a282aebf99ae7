/**
 * A number as the runner turns it into text: .NET `ToString("G15", InvariantCulture)`, which
 * its expression engine uses whenever a number becomes a string (`${{ 1.9 }}` in `env:`,
 * `format()`, `join()`, comparisons with strings). Differs from JavaScript's `String(n)`:
 * 15 significant digits (0.1 + 0.2 → "0.3"), exponent from 1E+15 up and below 1E-04 with at
 * least two exponent digits ("1E+15", "1E-05"), "-0" for negative zero, "NaN", "Infinity",
 * "-Infinity".
 */
export function formatRunnerNumber(value: number): string {
  // toExponential(14) rounds the exact binary value to 15 digits, ties away from zero, as .NET does.
  return format(value, (v) => v.toExponential(14));
}

/**
 * .NET's `double.ToString(InvariantCulture)`: the shortest digits that read back to the same
 * double, laid out like G15.
 */
export function formatShortestNumber(value: number): string {
  return format(value, (v) => v.toExponential());
}

function format(value: number, exponential: (v: number) => string): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';

  const [mantissa = '', exponentText = '0'] = exponential(value).split('e');
  const exponent = Number(exponentText);
  const sign = value < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '');

  if (exponent >= 15 || exponent < -4) {
    const rest = digits.slice(1);
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits[0] ?? '0'}${rest === '' ? '' : `.${rest}`}E${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const OCTAL = /^0o[0-7]+$/;

/**
 * A string read as a number the way the runner's expression engine does (comparisons of a
 * string with a number, `fromJSON` aside): surrounding white space ignored, empty is 0, decimal
 * with optional sign and exponent, `0x` hexadecimal and `0o` octal read as 32-bit integers (so
 * `0xffffffff` is -1, and more than 32 bits is NaN), `Infinity`/`-Infinity`, NaN for anything
 * else. Unlike JavaScript's `Number()`, `0b101`, `0X1F` and `1_000` are NaN.
 */
export function parseRunnerNumber(text: string): number {
  const str = text.trim();
  if (str === '') return 0;
  if (DECIMAL.test(str)) return Number(str);
  if (HEX.test(str)) return toInt32(BigInt(`0x${str.slice(2)}`));
  if (OCTAL.test(str)) return toInt32(BigInt(`0o${str.slice(2)}`));
  if (str === 'Infinity' || str === '+Infinity') return Infinity;
  if (str === '-Infinity') return -Infinity;
  return NaN;
}

/** The runner reads hex and octal into a 32-bit two's-complement integer; wider is NaN. */
function toInt32(value: bigint): number {
  if (value > 0xffffffffn) return NaN;
  return Number(BigInt.asIntN(32, value));
}
