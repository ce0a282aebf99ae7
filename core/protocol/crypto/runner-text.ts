// How the runner turns decrypted body bytes into a string: actions/runner
// src/Runner.Listener/MessageListener.cs, DecryptMessage reads the decrypting stream with a
// StreamReader given Encoding.UTF8. That constructor detects byte order marks, so a
// UTF-8 BOM is dropped and a UTF-32/UTF-16 BOM switches the decoding; without a BOM the bytes are
// UTF-8, with invalid sequences replaced by U+FFFD (no exception). The order of the checks follows
// the BOM detection of .NET's StreamReader (UTF-32 LE before UTF-16 LE, they share FF FE).

const REPLACEMENT = '\uFFFD';

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function utf16(bytes: Uint8Array, bigEndian: boolean): string {
  const even = bytes.length - (bytes.length % 2);
  const copy = Buffer.from(bytes.subarray(0, even));
  if (bigEndian) copy.swap16();
  return copy.toString('utf16le') + (even < bytes.length ? REPLACEMENT : '');
}

function utf32(bytes: Uint8Array, bigEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text = '';
  let i = 0;
  for (; i + 4 <= bytes.length; i += 4) {
    const cp = view.getUint32(i, !bigEndian);
    text += cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? REPLACEMENT : String.fromCodePoint(cp);
  }
  return i < bytes.length ? text + REPLACEMENT : text;
}

/** Decodes a decrypted message body the way the runner's StreamReader does. */
export function decodeRunnerText(bytes: Uint8Array): string {
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) return utf32(bytes.subarray(4), false);
  if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) return utf32(bytes.subarray(4), true);
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return Buffer.from(bytes.subarray(3)).toString('utf8');
  if (startsWith(bytes, [0xff, 0xfe])) return utf16(bytes.subarray(2), false);
  if (startsWith(bytes, [0xfe, 0xff])) return utf16(bytes.subarray(2), true);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
