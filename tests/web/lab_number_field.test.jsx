// The Lab's number fields keep what a visitor is typing when the page re-renders before the
// number is taken (on leaving the field or Enter): the Lab re-renders whenever its model says
// something changed, and a plain controlled input was set back to the old value then, so the
// setting silently stayed as it was (a browser test typing a seed met it under load).
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { NumberField } from '../../web/src/lab/NumberField.jsx';

function field(value, taken) {
  const host = document.createElement('div');
  document.body.append(host);
  const show = (v) => act(() => render(<NumberField value={v} onCommit={(text) => taken.push(text)} />, host));
  show(value);
  return { input: host.querySelector('input'), show };
}

const type = (input, text) =>
  act(() => {
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
const leave = (input) => act(() => input.dispatchEvent(new Event('change', { bubbles: true })));

describe('a Lab number field', () => {
  it('keeps the text being typed through a re-render with the old value, and hands it over when it is taken', () => {
    const taken = [];
    const { input, show } = field(1, taken);
    type(input, '7');
    show(1); // the model told of something else: the page renders the field with its old value
    expect(input.value).toBe('7');
    leave(input);
    expect(taken).toEqual(['7']);
  });

  it("shows the model's value again once the edit is taken (as the model clamped it)", () => {
    const taken = [];
    const { input, show } = field(4096, taken);
    type(input, '10');
    leave(input);
    show(4096); // the model took 10 as its floor, 4096
    expect(input.value).toBe('4096');
    show(8192); // and a later change of the model's shows
    expect(input.value).toBe('8192');
  });
});
