import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { escapeData, escapeProperty, parseAnyCommand, unescapeData, unescapeProperty } from './index.js';
import { parseCommand, parseLegacyCommand, splitPair } from './command-parser.js';

const known = (name: string): boolean => ['do-something', 'warning'].includes(name.toLowerCase());

function props(command: { properties: ReadonlyMap<string, string> } | undefined): Record<string, string> {
  assert.ok(command, 'expected a command');
  return Object.fromEntries(command.properties);
}

test('::name k=v,::data parses name, properties and data; leading white space is allowed', () => {
  const command = parseCommand('   ::do-something k1=v1,::msg', known);
  assert.equal(command?.name, 'do-something');
  assert.deepEqual(props(command), { k1: 'v1' });
  assert.equal(command?.data, 'msg');
  assert.deepEqual(props(parseCommand('::do-something k1=v1::', known)), { k1: 'v1' });
  assert.equal(parseCommand('::do-something::', known)?.data, '');
});

test('a command must start the line (after white space) and end its name part with ::', () => {
  assert.equal(parseCommand('   >>>   ::do-something k1=v1,::msg', known), undefined);
  assert.equal(parseCommand('::do-something k1=v1', known), undefined);
  assert.equal(parseCommand('::unknown::x', known), undefined);
  assert.equal(parseCommand(':: do-something::x', known), undefined);
});

test('data unescapes %0D %0A %25 only; properties also %3A %2C; %25 is decoded last', () => {
  const command = parseCommand('::do-something k1=;=%2C=%0D=%0A=]=%3A,::;-%0D-%0A-]-:-,', known);
  assert.deepEqual(props(command), { k1: ';=,=\r=\n=]=:' });
  assert.equal(command?.data, ';-\r-\n-]-:-,');
  const doubled = parseCommand('::do-something k1=;=%252C=%250D=%250A=]=%253A,::;-%250D-%250A-]-:-,', known);
  assert.deepEqual(props(doubled), { k1: ';=%2C=%0D=%0A=]=%3A' });
  assert.equal(doubled?.data, ';-%0D-%0A-]-:-,');
  assert.equal(unescapeData('%3A%2C'), '%3A%2C');
  assert.equal(unescapeProperty('a%3Ab%2Cc'), 'a:b,c');
});

test('escapeData/escapeProperty are the inverses of the unescaping', () => {
  for (const text of ['a%b\r\nc', '100%0A', 'x:y,z', '%25%%']) {
    assert.equal(unescapeData(escapeData(text)), text);
    assert.equal(unescapeProperty(escapeProperty(text)), text);
  }
  assert.equal(escapeProperty('a:b,c%'), 'a%3Ab%2Cc%25');
});

test('empty property values are dropped; pairs split like .NET Split("=", 2, RemoveEmptyEntries)', () => {
  assert.deepEqual(props(parseCommand('::do-something k1=,k2=,::', known)), {});
  assert.deepEqual(splitPair('k==v'), ['k', 'v']);
  assert.deepEqual(splitPair('=k=v'), ['k', 'v']);
  assert.deepEqual(splitPair('k=a=b'), ['k', 'a=b']);
  assert.equal(splitPair('k='), undefined);
  assert.equal(splitPair('k=='), undefined);
  assert.equal(splitPair('novalue'), undefined);
});

test('property keys are case-insensitive; data may contain ::', () => {
  const command = parseCommand('::warning FILE=a.ts,Line=3::one::two', known);
  assert.deepEqual(props(command), { file: 'a.ts', line: '3' });
  assert.equal(command?.data, 'one::two');
  assert.equal(parseCommand('::WARNING::x', known)?.name, 'WARNING');
});

test('the legacy ##[name k=v;]data form is found anywhere and has its own escapes', () => {
  const command = parseLegacyCommand('>>>   ##[do-something k1=v1;]msg', known);
  assert.deepEqual(props(command), { k1: 'v1' });
  assert.equal(command?.data, 'msg');
  const escaped = parseLegacyCommand('##[do-something k1=%3B=%0D=%0A=%5D;]%3B-%0D-%0A-%5D', known);
  assert.deepEqual(props(escaped), { k1: ';=\r=\n=]' });
  assert.equal(escaped?.data, ';-\r-\n-]');
  assert.deepEqual(props(parseLegacyCommand('##[do-something k1=;k2=;]', known)), {});
  assert.equal(parseLegacyCommand('##[do-something', known), undefined);
});

test('parseAnyCommand prefers the :: form and falls back to ##[', () => {
  assert.equal(parseAnyCommand('::warning::a ##[do-something]b', known)?.name, 'warning');
  assert.equal(parseAnyCommand('text ##[warning]b', known)?.data, 'b');
  assert.equal(parseAnyCommand('', known), undefined);
});
