// The sandbox's relay Worker forwards to the page only a copy of what the visitor's code
// posts within the message limits (web/src/sandbox/relay.js): whatever that code posts, the
// page's thread never copies more than the limits allow.
import { describe, expect, it } from 'vitest';
import { relayCopy } from '../../web/src/sandbox/relay.js';
import { MAX_ENTRIES, MAX_MESSAGE_CHARS, tooBig } from '../../web/src/model/messages.js';

describe("what the sandbox relays of a message from the visitor's code", () => {
  it('a message within the limits passes as it is', () => {
    const msg = { type: 'action', id: 3, action: 'north' };
    expect(relayCopy(msg)).toBe(msg);
  });

  it('a 100 MB error message goes on cut, with a marker saying how much was left out', () => {
    const copy = relayCopy({ type: 'error', phase: 'load', message: 'y'.repeat(1e8) });
    expect(copy).toMatchObject({ type: 'error', phase: 'load' });
    expect(copy.message).toMatch(/^y+… \(99996000 more characters\)$/);
    expect(tooBig(copy)).toBeNull();
  });

  it('a message still over the limits once its strings are cut keeps only its plain top-level fields, and says why', () => {
    const copy = relayCopy({ type: 'action', id: 7, action: Array.from({ length: 5000 }, () => 'z'.repeat(100)) });
    expect(copy).toEqual({ type: 'action', id: 7, refused: expect.stringMatching(/longer than 65536 characters/) });
    expect(tooBig(copy)).toBeNull();
  });

  it('binary data is never forwarded, and 20 fields of 100,000 characters come out within the limits', () => {
    expect(relayCopy({ type: 'log', bytes: new Uint8Array(1e6) })).toEqual({ type: 'log', bytes: null });
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'w'.repeat(1e5)]));
    const copy = relayCopy(wide);
    expect(JSON.stringify(copy).length).toBeLessThan(MAX_MESSAGE_CHARS);
    expect(tooBig(copy)).toBeNull();
  });

  it('a small message naming one array 10,000 times, whose copy would hold 10^8 strings, is refused having read at most the limits', () => {
    // the nested array reads through a Proxy that counts the items read, and stops the test
    // once the count passes 10 x the limits (copied whole, the message is 10^8 strings of 4,000)
    let read = 0;
    const leaf = ['x'.repeat(5000)];
    const middle = new Proxy(Array(10_000).fill(leaf), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key) && ++read > 10 * MAX_ENTRIES) throw new Error(`read ${read} items`);
        return Reflect.get(target, key, receiver);
      },
    });
    const copy = relayCopy({ type: 'note', id: 4, list: Array(10_000).fill(middle) });
    expect(copy).toEqual({ type: 'note', id: 4, refused: expect.stringMatching(/more than 10000 entries; the sandbox relays at most/) });
    expect(read).toBeLessThanOrEqual(MAX_ENTRIES);
  });

  it('a copy within the limits is made of a message over them, whatever its size: every string cut, the whole copy within the limits', () => {
    const copy = relayCopy({ type: 'note', list: Array.from({ length: 12 }, (_, i) => `${i}`.repeat(1e6)) });
    expect(copy.list).toHaveLength(12);
    expect(copy.list[11]).toMatch(/^(11){2000}… \(1996000 more characters\)$/);
    expect(tooBig(copy)).toBeNull();
  });
});
