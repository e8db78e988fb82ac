// The setup that npm start / npm test run: where it cannot install a missing tool, it stops
// with a message naming exactly what to install (it never skips anything silently).
import { expect, it } from 'vitest';
import { ensureCommand, has } from '../../tools/setup.mjs';

it('a missing tool that cannot be installed here stops with what to install', () => {
  expect(has('valley-farm-no-such-tool')).toBe(false);
  expect(() => ensureCommand('valley-farm-no-such-tool', 'no-such-package', 'Frobnicator 2 from frob.example', { apt: false })).toThrow(
    /'valley-farm-no-such-tool' is missing[\s\S]*Please install it yourself: Frobnicator 2 from frob\.example/,
  );
});

it('a tool that is present is left alone', () => {
  expect(() => ensureCommand('node', 'nodejs', 'Node.js', { apt: false })).not.toThrow();
});
