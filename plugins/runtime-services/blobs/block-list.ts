import { InputError } from '../../../core/kernel/index.js';

/** Azure: a block id is base64 of at most 64 bytes. */
const MAX_BLOCK_ID_BYTES = 64;
/** Azure: at most 50,000 blocks in a blob. */
export const MAX_BLOCKS = 50_000;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Throws `InputError` unless `blockId` is a block id Azure would take. */
export function checkBlockId(blockId: string): string {
  if (!BASE64.test(blockId) || blockId.length % 4 !== 0 || Buffer.from(blockId, 'base64').length > MAX_BLOCK_ID_BYTES) {
    throw new InputError(`'${blockId.slice(0, 100)}' is not a block id (base64 of at most ${MAX_BLOCK_ID_BYTES} bytes)`, { code: 'invalid_block_id' });
  }
  return blockId;
}

const DECLARATION = /^\s*<\?xml[^?]*\?>/;
const ELEMENT = /^\s*<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/;

/**
 * The body of `Put Block List` (`<BlockList><Latest>id</Latest>...</BlockList>`, what the Azure
 * SDK sends), as the ordered block ids. `Latest`, `Committed` and `Uncommitted` all name a staged
 * block here (block-blobs.ts keeps one version of each id). Anything else is refused.
 */
export function parseBlockList(xml: string): string[] {
  let rest = xml.replace(/^\uFEFF/, '').replace(DECLARATION, '').trim();
  const open = /^<BlockList>/.exec(rest);
  if (open === null || !rest.endsWith('</BlockList>')) throw invalid('the body is not a <BlockList> document');
  rest = rest.slice(open[0].length, rest.length - '</BlockList>'.length);
  const ids: string[] = [];
  while (rest.trim() !== '') {
    const element = ELEMENT.exec(rest);
    if (element === null) throw invalid('a <BlockList> holds only <Latest>, <Committed> and <Uncommitted> elements with a block id');
    ids.push(checkBlockId((element[2] ?? '').trim()));
    if (ids.length > MAX_BLOCKS) throw invalid(`a block list names at most ${MAX_BLOCKS} blocks`);
    rest = rest.slice(element[0].length);
  }
  return ids;
}

function invalid(message: string): InputError {
  return new InputError(message, { code: 'invalid_xml' });
}
