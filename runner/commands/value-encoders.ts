/**
 * The encodings of a secret the runner masks as well as the secret itself: it registers these
 * eleven encoders on its masker at start, and every value (job secrets, `::add-mask::`, the
 * stop-commands token) goes through all of them. An encoder returning '' adds nothing.
 */
import { Buffer } from 'node:buffer';

export type ValueEncoder = (value: string) => string;

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** Base64 of the value's bytes after dropping `shift` leading bytes (all of them if too short). */
function base64Shifted(value: string, shift: number): string {
  const bytes = Buffer.from(value, 'utf8');
  return base64(bytes.length > shift ? bytes.subarray(shift) : bytes);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** .NET's Uri.EscapeDataString: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded (UTF-8, upper-case hex). */
export function uriDataEscape(value: string): string {
  const wellFormed = value.replace(LONE_SURROGATE, '\uFFFD');
  return encodeURIComponent(wellFormed).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Newtonsoft's JSON string escaping without the surrounding quotes. */
export function jsonStringEscape(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\r':
        out += '\\r';
        break;
      default:
        if (code < 0x20 || code === 0x85 || code === 0x2028 || code === 0x2029) {
          out += `\\u${code.toString(16).padStart(4, '0')}`;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

/** .NET's SecurityElement.Escape. */
export function xmlDataEscape(value: string): string {
  return value.replace(/[<>"'&]/g, (c) => {
    switch (c) {
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case "'":
        return '&apos;';
      default:
        return '&amp;';
    }
  });
}

function trimDoubleQuotes(value: string): string {
  return value.length > 8 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : '';
}

// PowerShell may print a failing command split around `&` (or `&+`, with the next letter
// coloured); the runner masks each part of at least six characters.
function powerShellPreAmpersand(value: string): string {
  if (!value.includes('&')) return '';
  const plus = value.indexOf('&+');
  const section = plus >= 0 ? value.slice(0, plus + 2) : value.slice(0, value.lastIndexOf('&') + 1);
  return section.length >= 6 ? section : '';
}

function powerShellPostAmpersand(value: string): string {
  if (!value.includes('&')) return '';
  const plus = value.indexOf('&+');
  let section = '';
  if (plus >= 0) {
    if (value.length > plus + 3) section = value.slice(plus + 3);
  } else {
    section = value.slice(value.lastIndexOf('&') + 1);
  }
  return section.length >= 6 ? section : '';
}

export const RUNNER_VALUE_ENCODERS: readonly ValueEncoder[] = [
  (v) => base64(Buffer.from(v, 'utf8')),
  (v) => base64Shifted(v, 1),
  (v) => base64Shifted(v, 2),
  (v) => v.replaceAll('"', '\\"'),
  (v) => v.replaceAll("'", "''"),
  jsonStringEscape,
  uriDataEscape,
  xmlDataEscape,
  trimDoubleQuotes,
  powerShellPreAmpersand,
  powerShellPostAmpersand,
];
