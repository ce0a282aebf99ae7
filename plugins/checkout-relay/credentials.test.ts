import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError } from '../../core/kernel/index.js';
import { tokenFromAuthorization } from './credentials.js';

const basic = (text: string) => `basic ${Buffer.from(text).toString('base64')}`;

describe('tokenFromAuthorization', () => {
  it('takes the password of Basic credentials (any user), or the user when there is no password', () => {
    assert.equal(tokenFromAuthorization(basic('x-access-token:tok.en')), 'tok.en');
    assert.equal(tokenFromAuthorization(`BASIC ${Buffer.from('anyone:a:b').toString('base64')}`), 'a:b');
    assert.equal(tokenFromAuthorization(basic('tok.en')), 'tok.en');
    assert.equal(tokenFromAuthorization(basic('tok.en:')), 'tok.en');
  });

  it('takes Bearer and token schemes in any case', () => {
    assert.equal(tokenFromAuthorization('Bearer abc'), 'abc');
    assert.equal(tokenFromAuthorization('token abc'), 'abc');
    assert.equal(tokenFromAuthorization('TOKEN abc '), 'abc');
  });

  it('is an AuthError for no header, another scheme or empty credentials', () => {
    for (const header of [undefined, '', 'Digest abc', 'Bearer', basic(':')]) {
      assert.throws(() => tokenFromAuthorization(header), AuthError, String(header));
    }
  });
});
