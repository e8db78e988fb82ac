// NumberField.jsx — a number input whose typing survives the page re-rendering.
//
// The Lab re-renders whenever its model says something changed (a run kept in IndexedDB read
// back, another setting taken, a status line), and Preact sets a controlled input back to the
// value it is given. A number is taken when the visitor leaves the field or presses Enter (the
// change event), so what they had typed before then was thrown away by any re-render in
// between, and the setting silently kept its old value. While the field holds an edit of its
// own it shows that edit; once the edit is taken, the model's value again (clamped, say).
import { useState } from 'preact/hooks';

/** An <input type="number"> showing `value`, calling onCommit(text) with what is typed when it is taken. */
export function NumberField({ value, onCommit, ...props }) {
  const [draft, setDraft] = useState(null);
  return (
    <input
      type="number"
      {...props}
      value={draft ?? value}
      onInput={(e) => setDraft(e.currentTarget.value)}
      onChange={(e) => {
        setDraft(null);
        onCommit(e.currentTarget.value);
      }}
    />
  );
}
