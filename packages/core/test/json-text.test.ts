import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParamError, describeJsonTextError, jsonTextError, normalizeParams } from '../src/params/index.js';

describe('jsonTextError: where JSON text stops being JSON, in words of our own', () => {
  it('agrees with JSON.parse on what is valid', () => {
    const texts = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ', '"s"', '0', '{"a":{"b":[{}]}}',
      'texte', '{a:1}', '{"a":1,}', '{"a":1} x', '{"a":"x', '', '[1,2', '{"a":01}', '{"a":"\\q"}', '"\u0001"', '-', '1.', '[1 2]', '{"a" 1}', 'nul', '{"a":1]', '[[[', '"\\u12"'];
    for (const text of texts) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      assert.equal(jsonTextError(text) === null, valid, JSON.stringify(text));
    }
  });

  it('names the line, the column and the reason', () => {
    assert.equal(describeJsonTextError('texte'), "line 1, column 2: unexpected character 'e'");
    assert.equal(describeJsonTextError('{\n  "a": 1,\n  "b" 2\n}'), "line 3, column 7: unexpected character '2'");
    assert.equal(describeJsonTextError('{"a": 1'), 'line 1, column 8: unexpected end of text');
    assert.equal(describeJsonTextError('{"a": "x'), 'line 1, column 7: unterminated string');
    assert.equal(describeJsonTextError('{"a": "\\q"}'), 'line 1, column 8: invalid escape in a string');
    assert.equal(describeJsonTextError('"a\u0001"'), 'line 1, column 3: control character in a string');
    assert.equal(describeJsonTextError('{"a": -}'), 'line 1, column 7: invalid number');
    assert.equal(describeJsonTextError('{} {}'), 'line 1, column 4: text after the JSON value');
    assert.equal(describeJsonTextError('{"é": 1,, }'), "line 1, column 9: unexpected character ','");
    // A hidden character is named by its code, never shown (a bidirectional override turns text around).
    assert.equal(describeJsonTextError('{\u202e}'), 'line 1, column 2: unexpected character U+202E');
  });

  it('takes any nesting without recursion', () => {
    assert.equal(describeJsonTextError('['.repeat(200_000)), 'line 1, column 200001: unexpected end of text');
  });
});

describe('normalizeParams reads JSON text once', () => {
  it('JSON text holding a string is a string, not re-read as JSON (whose message was the engine\'s English)', () => {
    assert.throws(() => normalizeParams('"texte"', { strategy: 'fvg_impulsive' }), (err: unknown) => {
      assert.ok(err instanceof ParamError);
      assert.equal(err.expected, 'an object of name: value');
      assert.equal(err.value, 'texte');
      return true;
    });
    assert.throws(() => normalizeParams('{oops', { strategy: 'fvg_impulsive' }), (err: unknown) => {
      assert.ok(err instanceof ParamError);
      assert.equal(err.expected, "a JSON object (line 1, column 2: unexpected character 'o')");
      return true;
    });
  });
});
