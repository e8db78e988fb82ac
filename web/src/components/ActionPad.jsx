// ActionPad.jsx — a button per action with its name and key. Moves sit in a cross; verbs
// in a grid. Actions that are illegal right now are marked, with the engine's reason on the
// button's tooltip (and still playable: an illegal action spends a step and changes nothing
// else; the status panel then says which rule blocked it).
import { envMeta } from '../model/envMeta.js';

const MOVE_GLYPH = { north: '↑', south: '↓', east: '→', west: '←' };

function ActionButton({ id, name, meta, legal, why, onAct }) {
  const isMove = name in MOVE_GLYPH;
  return (
    <button
      type="button"
      class={`action action-${name}${legal ? '' : ' illegal'}`}
      data-action={name}
      aria-keyshortcuts={meta.key === 'Space' ? 'Space' : meta.key}
      aria-describedby={legal ? undefined : 'illegal-note'}
      title={`${meta.hint}${legal ? '' : ` — illegal now: ${why?.text ?? 'the episode is over'}`}`}
      onClick={(e) => {
        // a tap or a mouse click leaves the keyboard to the game: Space then waits instead of
        // clicking this button again (a click from the keyboard, detail 0, keeps the focus)
        if (e.detail > 0) e.currentTarget.blur();
        onAct(id);
      }}
    >
      <span class="action-name">
        {isMove ? (
          <>
            <span aria-hidden="true">{MOVE_GLYPH[name]}</span> {name}
          </>
        ) : (
          name
        )}
      </span>
      <kbd>{meta.key}</kbd>
      {!legal && (
        <span class="illegal-mark" aria-hidden="true">
          ✗
        </span>
      )}
    </button>
  );
}

export function ActionPad({ session, onAct }) {
  const { spec, envId } = session;
  const meta = envMeta[envId];
  const legal = session.done ? new Uint8Array(spec.actions.length) : session.legal;
  const reasons = session.done ? [] : session.reasons;
  const buttons = spec.actions.map((name, id) => (
    <ActionButton id={id} name={name} meta={meta.actions[name]} legal={legal[id] === 1} why={reasons[id]} onAct={onAct} />
  ));
  return (
    <section class="panel actions" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      <div class="pad">
        <div class="dpad">{buttons.slice(0, 4)}</div>
        <div class="verbs">{buttons.slice(4)}</div>
      </div>
      <p id="illegal-note" class="note">
        <span class="illegal-mark" aria-hidden="true">
          ✗
        </span>{' '}
        illegal now: it still spends a step. Keys: arrows or WASD move; N new episode.
      </p>
    </section>
  );
}
