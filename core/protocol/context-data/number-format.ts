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
