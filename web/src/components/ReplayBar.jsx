// ReplayBar.jsx — record and replay: export the episode as JSON, import a JSON file, make a
// share link; while a replay is open, step back and forth through it or play on from a step.
import { useState } from 'preact/hooks';
import { encodeReplayJson } from '../replay.js';

function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function ReplayControls({ session }) {
  const { cursor, record, playing } = session.replay;
  const n = record.actions.length;
  return (
    <div class="replay-controls" role="group" aria-label="Replay">
      <button type="button" onClick={() => session.seek(0)} disabled={cursor === 0} aria-label="First step">
        ⇤
      </button>
      <button type="button" onClick={() => session.replayStep(-1)} disabled={cursor === 0} aria-label="Step back" aria-keyshortcuts="[">
        ◂ <kbd>[</kbd>
      </button>
      <button type="button" onClick={() => session.toggleReplayPlay()} aria-label={playing ? 'Pause the replay' : 'Play the replay'}>
        {playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={() => session.replayStep(1)} disabled={cursor === n} aria-label="Step forward" aria-keyshortcuts="]">
        <kbd>]</kbd> ▸
      </button>
      <button type="button" onClick={() => session.seek(n)} disabled={cursor === n} aria-label="Last step">
        ⇥
      </button>
      <span class="replay-pos" data-testid="replay-position">
        step {cursor} / {n}
      </span>
      <button type="button" class="ghost" onClick={() => session.takeOver()}>
        Play on from here
      </button>
    </div>
  );
}

export function ReplayBar({ app }) {
  const { session } = app;
  const [link, setLink] = useState('');
  const record = session.record();
  const share = async () => {
    const url = app.shareLink();
    setLink(url);
    try {
      await navigator.clipboard?.writeText(url);
    } catch {
      /* the link stays visible for copying by hand */
    }
  };
  const onFile = async (e) => {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (file) await app.importReplayFile(file);
  };
  return (
    <section class="panel replay" aria-labelledby="replay-title">
      <h2 id="replay-title">Record &amp; replay</h2>
      {session.replay && <ReplayControls session={session} />}
      <div class="replay-buttons">
        <button
          type="button"
          onClick={() => download(`${record.env}-seed${record.seed}-${record.actions.length}steps.json`, encodeReplayJson(record))}
        >
          Export JSON
        </button>
        <label class="button file-button">
          Import JSON
          <input type="file" accept=".json,application/json" onChange={onFile} data-testid="import-file" />
        </label>
        <button type="button" onClick={share}>
          Share link
        </button>
      </div>
      {link && (
        <p class="share">
          <label for="share-link">Link to this episode (copied):</label>
          <input id="share-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
    </section>
  );
}
