// CodeBox.jsx — an editable example: a labelled code box, Run (or Ctrl+Enter), and the output
// (console lines, then the error or "done"). The code runs in a sandboxed Web Worker with a time limit and output caps.
import { useState } from 'preact/hooks';
import { runInWorker } from '../model/runner.js';

export function CodeBox({ id, title, code: initial, rows }) {
  const [code, setCode] = useState(initial.trim());
  const [out, setOut] = useState(null); // { lines, status: 'running' | 'done' | 'error', error }
  const boxId = `ex-${id}`;
  async function run() {
    const lines = [];
    setOut({ lines, status: 'running' });
    const result = await runInWorker(
      { type: 'example', code },
      {
        onMessage: (m) => {
          if (m.type === 'log') {
            // the array is shared, not copied per line (the runner caps its length); Preact
            // batches these updates into one render
            lines.push(m.text);
            setOut({ lines, status: 'running', count: lines.length });
          }
        },
      },
    );
    setOut({ lines, status: result.type, error: result.message });
  }
  const onKey = (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  };
  return (
    <div class="docs-code" data-example={id}>
      <label for={boxId} class="docs-code-label">
        {title ?? 'Example'} <span class="docs-hint">(editable; Ctrl+Enter runs)</span>
      </label>
      <textarea
        id={boxId}
        class="docs-code-input"
        spellcheck={false}
        rows={rows ?? Math.min(18, code.split('\n').length + 1)}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
        onKeyDown={onKey}
      />
      <div class="docs-code-bar">
        <button type="button" class="docs-btn docs-run" onClick={run} disabled={out?.status === 'running'}>
          Run
        </button>
        <button
          type="button"
          class="docs-btn"
          onClick={() => {
            setCode(initial.trim());
            setOut(null);
          }}
        >
          Restore
        </button>
        {out && (
          <span class={`docs-code-status status-${out.status}`}>
            {out.status === 'running' ? 'running…' : out.status === 'done' ? 'done' : 'error'}
          </span>
        )}
      </div>
      <pre class="docs-code-output" tabIndex={0} aria-live="polite" aria-label="Output" data-status={out?.status ?? 'idle'}>
        {out
          ? [...out.lines, ...(out.error ? [`✗ ${out.error}`] : [])].join('\n') || (out.status === 'done' ? '(no output)' : '')
          : 'Press Run to see the output.'}
      </pre>
    </div>
  );
}
