/**
 * Numbers the way the official runner writes and reads them. The runner is .NET: it formats a
 * double with the "G15" format of the invariant culture and parses strings with its own rules
 * (a JavaScript-like `Number()`, but stricter). Both matter wherever a number meets a string:
 * `format()`, `join()`, `contains()`, `toJSON()`, comparisons and `${{ }}` interpolation.
 */

/** Significant digits of the runner's "G15" number format. */
const PRECISION = 15;

/**
 * Formats a number as the runner converts it to a string: at most 15 significant digits,
 * integers without a decimal point, fixed notation for exponents -5 < e < 15 and `1.5E+20` /
 * `1E-05` scientific notation otherwise, `NaN`, `Infinity`, `-Infinity`, and negative zero as `0`
 * (the runner maps -0 to 0 explicitly, where plain .NET would print `-0`).
 */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return '0';
  if (Number.isSafeInteger(value) && Math.abs(value) < 1e15) return String(value);

  // toExponential rounds to 15 significant digits exactly like "G15" picks them.
  const [mantissa = '', exponentText = '0'] = value.toExponential(PRECISION - 1).split('e');
  const exponent = Number(exponentText);
  const sign = value < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '');

  if (exponent >= PRECISION || exponent <= -5) {
    const head = digits.slice(0, 1);
    const tail = digits.slice(1);
    const exponentDigits = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${head}${tail ? `.${tail}` : ''}E${exponent < 0 ? '-' : '+'}${exponentDigits}`;
  }
  if (exponent >= 0) {
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
  }
  return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const OCTAL = /^0o[0-7]+$/;

/**
 * Converts a string to a number as the runner does when it compares a string with a number:
 * surrounding white space ignored, empty is 0, decimal with optional sign and exponent,
 * `0x` hexadecimal and `0o` octal read as 32-bit integers (so `0xffffffff` is -1, and more than
 * 32 bits is NaN), `Infinity`/`-Infinity`, NaN for anything else. Unlike JavaScript's `Number()`,
 * `0b101`, `0X1F` and `1_000` are NaN.
 */
export function parseNumber(text: string): number {
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
