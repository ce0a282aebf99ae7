import { WireFormatError } from '../wire/index.js';

// .NET TimeSpan as it travels in message bodies (JobCancellation and AgentRefresh `timeout`).
// Newtonsoft writes TimeSpan.ToString() (the constant "c" format, `[-][d.]hh:mm:ss[.fffffff]`)
// and reads with TimeSpan.Parse, which also takes `d`, `hh:mm` and `d:hh:mm:ss`. Resolution is
// one tick (100 ns); values here are milliseconds.

const TICKS_PER_MS = 10_000;
const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;
const MS_PER_DAY = 24 * MS_PER_HOUR;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** A duration in milliseconds as the runner writes a TimeSpan (`00:05:00`, `1.02:03:04.5000000`). */
export function formatTimeSpan(milliseconds: number): string {
  if (!Number.isFinite(milliseconds)) throw new RangeError(`a TimeSpan must be finite, got ${milliseconds}`);
  const negative = milliseconds < 0;
  const ticks = Math.round(Math.abs(milliseconds) * TICKS_PER_MS);
  const fractionTicks = ticks % (MS_PER_SECOND * TICKS_PER_MS);
  let rest = (ticks - fractionTicks) / TICKS_PER_MS;
  const days = Math.floor(rest / MS_PER_DAY);
  rest -= days * MS_PER_DAY;
  const hours = Math.floor(rest / MS_PER_HOUR);
  rest -= hours * MS_PER_HOUR;
  const minutes = Math.floor(rest / MS_PER_MINUTE);
  const seconds = (rest - minutes * MS_PER_MINUTE) / MS_PER_SECOND;
  const sign = negative && ticks > 0 ? '-' : '';
  const fraction = fractionTicks > 0 ? `.${String(fractionTicks).padStart(7, '0')}` : '';
  return `${sign}${days > 0 ? `${days}.` : ''}${two(hours)}:${two(minutes)}:${two(seconds)}${fraction}`;
}

const FORMS = [
  // [-]d.hh:mm[:ss[.f]]  or  [-]hh:mm[:ss[.f]]
  /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?$/,
  // [-]d:hh:mm:ss[.f]
  /^(-)?(\d+):(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,7}))?$/,
];

/**
 * Milliseconds from a TimeSpan string in the forms TimeSpan.Parse takes (`00:05:00`, `5`,
 * `1.02:03:04.5`, `1:02:03:04`); hours 0–23, minutes and seconds 0–59. `path` names the value in
 * the WireFormatError for anything else.
 */
export function parseTimeSpan(text: string, path = '$'): number {
  const trimmed = text.trim();
  const daysOnly = /^(-)?(\d+)$/.exec(trimmed);
  if (daysOnly) return (daysOnly[1] ? -1 : 1) * Number(daysOnly[2]) * MS_PER_DAY;
  for (const form of FORMS) {
    const m = form.exec(trimmed);
    if (!m) continue;
    const [, sign, d, h, min, s, f] = m;
    const hours = Number(h);
    const minutes = Number(min);
    const seconds = s === undefined ? 0 : Number(s);
    if (hours > 23 || minutes > 59 || seconds > 59) break;
    const fractionMs = f === undefined ? 0 : Number(f.padEnd(7, '0')) / TICKS_PER_MS;
    const total = Number(d ?? 0) * MS_PER_DAY + hours * MS_PER_HOUR + minutes * MS_PER_MINUTE + seconds * MS_PER_SECOND + fractionMs;
    return sign ? -total : total;
  }
  throw new WireFormatError('invalid_value', path, `expected a TimeSpan such as "00:05:00", got ${JSON.stringify(text)}`);
}
