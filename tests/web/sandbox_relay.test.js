// The sandbox's relay Worker forwards to the page only a copy of what the visitor's code
// posts within the message limits (web/src/sandbox/relay.js): whatever that code posts, the
// page's thread never copies more than the limits allow.
import { describe, expect, it } from 'vitest';
import { relayCopy } from '../../web/src/sandbox/relay.js';
import { MAX_MESSAGE_CHARS, tooBig } from '../../web/src/model/messages.js';

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
});
