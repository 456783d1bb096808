import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { MAX_IF_MATCH_TAGS, parseIfMatch, strongEtag } from '../../src/http/if-match.js';
import { changeConditionOf, petEtag, versionsAccepted } from '../../src/pets/pets.etag.js';

describe('parseIfMatch', () => {
  it('when the header is absent > answers undefined (no condition)', () => {
    assert.equal(parseIfMatch(undefined), undefined);
  });

  it('when the header is * (with optional white space) > answers any', () => {
    assert.deepEqual(parseIfMatch('*'), { any: true });
    assert.deepEqual(parseIfMatch(' * '), { any: true });
  });

  const lists: [string, string, string[], number][] = [
    ['one strong tag', '"7-3"', ['7-3'], 0],
    ['a list with white space', ' "7-3" ,\t"7-4"', ['7-3', '7-4'], 0],
    ['two If-Match lines as Node joins them', '"7-3", "7-4"', ['7-3', '7-4'], 0],
    ['empty list elements', ', "7-3",, "7-4",', ['7-3', '7-4'], 0],
    ['an empty tag', '""', [''], 0],
    ['a weak tag, which never matches', 'W/"7-3"', [], 1],
    ['a weak and a strong tag', 'W/"7-3", "7-4"', ['7-4'], 1],
    ['obs-text inside a tag', '"caf\u00e9"', ['caf\u00e9'], 0],
  ];
  for (const [scenario, value, strongTags, weakTags] of lists) {
    it(`when the header is ${scenario} > answers the strong tags, and counts the weak ones`, () => {
      assert.deepEqual(parseIfMatch(value), { any: false, strongTags, weakTags });
    });
  }

  const malformed: [string, string, RegExp][] = [
    ['empty', '', /is empty/],
    ['only white space', '  ', /is empty/],
    ['only commas', ' , ,', /lists no entity tag/],
    ['a tag without quotes', '7-3', /entity tags, each the ETag exactly as received, quotes included/],
    ['a tag missing its closing quote', '"7-3', /at character 1$/],
    ['two tags without a comma', '"7-3" "7-4"', /at character 7$/],
    ['a second element that is broken', '"7-3", 7-4', /at character 8$/],
    ['a weak prefix without its tag', 'W/7', /at character 1$/],
    ['* inside a list', '*, "7-3"', /must be "\*" or/],
    ['a lower-case weak prefix', 'w/"7-3"', /must be "\*" or/],
    ['a space inside a tag', '"7 3"', /must be "\*" or/],
    ['a quote inside a tag', '"7"3"', /must be "\*" or/],
    ['a control character inside a tag', '"7\u00013"', /must be "\*" or/],
    [`more than ${MAX_IF_MATCH_TAGS} tags`, Array.from({ length: MAX_IF_MATCH_TAGS + 1 }, (_, i) => `"${i}"`).join(','), /more than 100 entity tags/],
  ];
  for (const [scenario, value, message] of malformed) {
    it(`when the header is ${scenario} > throws validation_failed naming header.If-Match`, () => {
      assert.throws(
        () => parseIfMatch(value),
        (error: unknown) => {
          assert.ok(error instanceof AppError);
          assert.equal(error.code, 'validation_failed');
          assert.match(error.message, /^header\.If-Match /);
          assert.match(error.message, message);
          assert.deepEqual(error.details, [{ field: 'header.If-Match', message: error.message }]);
          return true;
        },
      );
    });
  }

  it(`when the header lists exactly ${MAX_IF_MATCH_TAGS} tags > accepts them`, () => {
    const value = Array.from({ length: MAX_IF_MATCH_TAGS }, (_, i) => `"${i}"`).join(',');
    assert.equal((parseIfMatch(value) as { strongTags: string[] }).strongTags.length, MAX_IF_MATCH_TAGS);
  });
});

describe('strongEtag', () => {
  it('when the content is a plain token > quotes it', () => {
    assert.equal(strongEtag('7-3'), '"7-3"');
  });
  it('when the content holds a quote > throws rather than make a tag no client could send back', () => {
    assert.throws(() => strongEtag('7"3'), TypeError);
  });
});

describe('pet entity tags', () => {
  it('petEtag > is "<id>-<version>"', () => {
    assert.equal(petEtag({ id: 7, version: 3 }), '"7-3"');
  });

  it('versionsAccepted without a condition or with * > answers undefined: the change is unconditional', () => {
    assert.equal(versionsAccepted(undefined, 7), undefined);
    assert.equal(versionsAccepted({ any: true }, 7), undefined);
  });

  it('versionsAccepted with tags of this pet > answers their versions, once each', () => {
    assert.deepEqual(versionsAccepted({ any: false, strongTags: ['7-3', '7-5', '7-3'], weakTags: 0 }, 7), [3, 5]);
  });

  it("versionsAccepted with another pet's tag or tags this service never makes > answers no version", () => {
    for (const tag of ['8-3', '07-3', '7-03', '7-0', '7-', '-3', '7-3-1', '7', '', 'abc', '7-99999999999999999']) {
      assert.deepEqual(versionsAccepted({ any: false, strongTags: [tag], weakTags: 0 }, 7), [], tag);
    }
  });

  it('changeConditionOf with weak tags > says whether they were the only tags, so a refusal can say why', () => {
    assert.deepEqual(changeConditionOf(parseIfMatch('W/"7-3"'), 7), { versions: [], weakTags: 'only' });
    assert.deepEqual(changeConditionOf(parseIfMatch('W/"7-3", "7-2"'), 7), { versions: [2], weakTags: 'also' });
    assert.deepEqual(changeConditionOf(parseIfMatch('"7-2"'), 7), { versions: [2] });
    assert.deepEqual(changeConditionOf(parseIfMatch('*'), 7), { versions: undefined });
    assert.deepEqual(changeConditionOf(undefined, 7), { versions: undefined });
  });
});
