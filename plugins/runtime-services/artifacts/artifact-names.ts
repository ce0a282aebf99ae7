import { InputError } from '../../../core/kernel/index.js';

/** Longest name accepted (a file name on every filesystem download-artifact writes to). */
export const MAX_ARTIFACT_NAME_LENGTH = 255;

/** What `@actions/artifact` refuses in a name (NTFS limits), plus control characters. */
const FORBIDDEN = /[":<>|*?\\/\u0000-\u001f\u007f]/;

/**
 * An artifact name the service accepts. The client checks the same characters, but a name is
 * also a directory name on download (`download-artifact` writes each artifact to `<path>/<name>`),
 * so `.` and `..` (traversal), separators and control characters are refused here as well.
 */
export function checkArtifactName(name: string): string {
  const bad = FORBIDDEN.exec(name);
  if (name.length === 0 || name.length > MAX_ARTIFACT_NAME_LENGTH || name.trim() !== name || name === '.' || name === '..' || bad !== null) {
    const reason = bad !== null ? `it contains ${JSON.stringify(bad[0])}` : name === '.' || name === '..' ? 'it names a directory' : `it must be 1 to ${MAX_ARTIFACT_NAME_LENGTH} characters without leading or trailing spaces`;
    throw new InputError(`the artifact name ${JSON.stringify(name.slice(0, 80))} is not valid: ${reason}`, { code: 'invalid_argument' });
  }
  return name;
}

/** `sha256:<64 hex>`, the digest the client computes while uploading. */
export function checkDigest(digest: string): string {
  if (!/^sha256:[0-9a-f]{64}$/.test(digest)) throw new InputError(`hash must be sha256:<64 lower-case hex digits>`, { code: 'invalid_argument' });
  return digest;
}

/** The `Content-Disposition` a download answers with: the file name the client saves a raw (non-zip) artifact as. */
export function contentDisposition(name: string, mimeType: string | null): string {
  const file = mimeType === 'application/zip' && !name.toLowerCase().endsWith('.zip') ? `${name}.zip` : name;
  const ascii = file.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`;
}
