// AgentEditor.jsx — write act(observation, info) (and optionally reset()) and run it. The
// code runs in a sandboxed Web Worker: an error or an endless loop is reported and stopped.
import { starterCode } from '../model/starterCode.js';

export function AgentEditor({ app }) {
  const envId = app.session.envId;
  const code = app.code[envId];
  return (
    <details class="panel editor" open>
      <summary>Write your own agent</summary>
      <p class="note">
        Define <code>act(observation, info)</code> returning an action (a number or a name such as <code>'north'</code>); optionally{' '}
        <code>reset()</code>, called at each new episode. It runs in a sandboxed Web Worker (no access to this site's storage), at most 1 s
        per step.
      </p>
      <textarea
        id="agent-code"
        aria-label="Agent code"
        spellcheck={false}
        rows={9}
        value={code}
        onInput={(e) => app.setCode(e.currentTarget.value)}
      />
      <div class="editor-buttons">
        <button type="button" class="primary" onClick={() => app.runCode()}>
          Run code
        </button>
        <button type="button" class="ghost" onClick={() => app.setCode(starterCode[envId])}>
          Restore the example
        </button>
      </div>
      {app.codeStatus && (
        <p class={`code-status code-${app.codeStatus.kind}`} role={app.codeStatus.kind === 'error' ? 'alert' : 'status'}>
          {app.codeStatus.text}
        </p>
      )}
    </details>
  );
}
