import { SvcError } from '../../../core/kernel/index.js';
import type { ByteRange } from './block-blobs.js';

/** 416: the range starts past the end of the blob. */
export class RangeNotSatisfiableError extends SvcError {
  constructor(message: string) {
    super(message, 416, 'range_not_satisfiable');
  }
}

const RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * The one byte range of a download (`x-ms-range` wins over `Range`, as on Azure): `bytes=a-b`,
 * `bytes=a-` or `bytes=-n`, clipped to the blob. Undefined for no header, an empty blob, or a
 * header we do not serve ranges for (several ranges, other units): the whole blob is sent, as
 * HTTP allows. A range starting past the end is a 416.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | undefined {
  if (header === undefined || size === 0) return undefined;
  const match = RANGE.exec(header.trim());
  if (match === null) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) throw new RangeNotSatisfiableError(`the range '${header}' selects no bytes`);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) throw new RangeNotSatisfiableError(`the range '${header}' starts past the end of the ${size}-byte blob`);
  if (end < start) return undefined;
  return { start, end };
}
