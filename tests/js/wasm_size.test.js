// The engine the page and the package load is held under a size budget, measured on the
// build (not typed anywhere else): the README quotes the budget, and this test checks that
// it quotes this one.
import { readFileSync, statSync } from 'node:fs';
import { expect, it } from 'vitest';

const BUDGET = 96_000; // bytes of wasm/valley_farm.wasm (86,000 until the agents and the policy's features moved into the engine from JS)
const file = new URL('../../wasm/valley_farm.wasm', import.meta.url);

it(`wasm/valley_farm.wasm, as built, is at most ${BUDGET} bytes`, () => {
  const { size } = statSync(file);
  expect(
    size,
    `the engine grew to ${size} bytes; find what grew (or raise the budget here and in the README, saying why)`,
  ).toBeLessThanOrEqual(BUDGET);
});

it('the README states this budget', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`held under ${BUDGET.toLocaleString('en-US')} bytes by \`tests/js/wasm_size.test.js\``);
});
