// Replay files and share links: what is valid round-trips exactly; anything malformed is
// rejected with a message that says what is wrong and what is allowed.
import { describe, it, expect } from 'vitest';
import {
  parseReplayJson,
  validateReplay,
  encodeReplayJson,
  encodeShareData,
  decodeShareData,
  shareUrl,
  parseSeed,
  ReplayError,
} from '../../web/src/replay.js';

const good = { env: 'ValleyFarm-v0', seed: 42, actions: [0, 4, 11, 10] };
const rejects = (fn) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ReplayError);
    return err.message;
  }
  throw new Error('expected a ReplayError');
};

describe('replay JSON', () => {
  it('round-trips a record, names included', () => {
    const text = encodeReplayJson({ ...good, ret: 1.25 });
    expect(JSON.parse(text)).toMatchObject({
      format: 'valley-farm-replay',
      version: 1,
      return: 1.25,
      actionNames: ['north', 'plant', 'wait', 'sell'],
    });
    expect(parseReplayJson(text)).toEqual(good);
  });

  it('accepts action names and a seed above 2^53 as a decimal string', () => {
    const r = validateReplay({ env: 'BackwardsValleyFarm-v0', seed: '18446744073709551615', actions: ['insult', 3] });
    expect(r).toEqual({ env: 'BackwardsValleyFarm-v0', seed: 18446744073709551615n, actions: [10, 3] });
    expect(JSON.parse(encodeReplayJson(r)).seed).toBe('18446744073709551615');
  });

  it.each([
    ['', /The replay file is empty/],
    ['{"env":', /not valid JSON/],
    ['[1,2]', /must be a JSON object like \{"env": "ValleyFarm-v0", "seed": 42, "actions": \[0, 4, 11\]\}; got a list/],
    ['{"format":"other","env":"ValleyFarm-v0","seed":1,"actions":[]}', /"format" is "other"; a replay file says "valley-farm-replay"/],
    ['{"version":2,"env":"ValleyFarm-v0","seed":1,"actions":[]}', /"version" is 2; this page reads version 1/],
    ['{"seed":1,"actions":[]}', /has no "env"; it must name the farm: ValleyFarm-v0, BackwardsValleyFarm-v0/],
    [
      '{"env":"CartPole-v1","seed":1,"actions":[]}',
      /env "CartPole-v1" is not a farm of this page; allowed: ValleyFarm-v0, BackwardsValleyFarm-v0/,
    ],
    ['{"env":"ValleyFarm-v0","actions":[]}', /has no "seed"; it must be a whole number from 0 to 18446744073709551615/],
    ['{"env":"ValleyFarm-v0","seed":-1,"actions":[]}', /seed" is -1; a seed must be a whole number from 0 to 18446744073709551615/],
    ['{"env":"ValleyFarm-v0","seed":1.5,"actions":[]}', /seed" is 1.5/],
    ['{"env":"ValleyFarm-v0","seed":"18446744073709551616","actions":[]}', /seed" is "18446744073709551616"/],
    ['{"env":"ValleyFarm-v0","seed":1,"actions":"0,1"}', /"actions" is "0,1"; it must be a list of action ids or names/],
    [
      '{"env":"ValleyFarm-v0","seed":1,"actions":[0,12]}',
      /actions\[1\] is 12; ValleyFarm-v0 actions are integers 0 … 11 or names \(north, south/,
    ],
    ['{"env":"BackwardsValleyFarm-v0","seed":1,"actions":[11]}', /actions\[0\] is 11; BackwardsValleyFarm-v0 actions are integers 0 … 10/],
    ['{"env":"ValleyFarm-v0","seed":1,"actions":["jump"]}', /actions\[0\] is "jump"/],
    [`{"env":"ValleyFarm-v0","seed":1,"actions":[${Array(51).fill(11)}]}`, /has 51 actions, but a ValleyFarm-v0 episode ends after 50/],
    [
      `{"env":"BackwardsValleyFarm-v0","seed":1,"actions":[${Array(41).fill(4)}]}`,
      /has 41 actions, but a BackwardsValleyFarm-v0 episode ends after 40/,
    ],
  ])('rejects %j', (text, message) => {
    expect(rejects(() => parseReplayJson(text))).toMatch(message);
  });
});

describe('share links', () => {
  it('encode compactly: version, env code, seed, one base-36 character per action', () => {
    expect(encodeShareData(good)).toBe('1.V.42.04ba');
    expect(encodeShareData({ env: 'BackwardsValleyFarm-v0', seed: 7, actions: [] })).toBe('1.B.7.');
    expect(shareUrl(good, 'http://x.test/farm/#/docs')).toBe('http://x.test/farm/#replay=1.V.42.04ba');
  });

  it('decode what they encode, also %-escaped and with a 64-bit seed', () => {
    expect(decodeShareData('1.V.42.04ba')).toEqual(good);
    expect(decodeShareData(encodeURIComponent('1.V.42.04ba'))).toEqual(good);
    const big = { env: 'BackwardsValleyFarm-v0', seed: 2n ** 63n, actions: [10, 9, 0] };
    expect(decodeShareData(encodeShareData(big))).toEqual(big);
  });

  it.each([
    ['', /has no replay after "#replay="; it should look like #replay=1.V.42.04b/],
    ['%E0%A4%A', /garbled/],
    ['1.V.42', /has 3 part\(s\), not 4/],
    ['2.V.42.0', /version "2"; this page reads version 1 links/],
    ['1.X.42.0', /env code "X" is unknown; allowed: V \(ValleyFarm-v0\), B \(BackwardsValleyFarm-v0\)/],
    ['1.V.forty.0', /share link's seed is "forty"; a seed must be a whole number from 0 to/],
    ['1.V.42.0c', /Action 2 of the share link is "c"; ValleyFarm-v0 actions are written 0–9, a, b/],
    ['1.B.42.b', /Action 1 of the share link is "b"; BackwardsValleyFarm-v0 actions are written 0–9, a/],
    [`1.V.1.${'b'.repeat(51)}`, /has 51 actions, but a ValleyFarm-v0 episode ends after 50/],
  ])('reject %j', (data, message) => {
    expect(rejects(() => decodeShareData(data))).toMatch(message);
  });
});

describe('seeds', () => {
  it('are numbers up to 2^53 − 1 and BigInts above', () => {
    expect(parseSeed('0')).toBe(0);
    expect(parseSeed('9007199254740991')).toBe(9007199254740991);
    // decimal digits only: no padding, no hex, not empty (the seed box trims what is typed)
    for (const bad of ['', ' 12 ', '0x10', '1e3', '-1', '+5']) expect(() => parseSeed(bad)).toThrow(/a seed must be a whole number/);
    expect(parseSeed('9007199254740992')).toBe(9007199254740992n);
    expect(rejects(() => parseSeed('12ab', 'seed you typed'))).toBe(
      'The seed you typed is "12ab"; a seed must be a whole number from 0 to 18446744073709551615.',
    );
  });
});
