// StatusPanel.jsx — everything the observation holds, in words, plus the last reward, the
// episode return and whether the last action was legal; at the end, the episode's result.
import { formatReturn } from '../model/session.js';
import { cellLabel } from '../model/labels.js';
import { windowCells } from '../model/views.js';
import { VALLEY_MOODS } from '../model/labels.js';

const INVENTORY = ['seeds', 'water', 'crops', 'feed', 'products', 'coins', 'gifts'];
const FACING = ['north', 'south', 'east', 'west'];
const AROUND = [['north', 7], ['east', 13], ['south', 17], ['west', 11]];

function Row({ name, value, id }) {
  return (
    <div class="stat">
      <dt>{name}</dt>
      <dd data-stat={id}>{value}</dd>
    </div>
  );
}

// A villager's mood is the engine's (state()), not re-derived from the rounded relationship
// the observation shows: at 47.5 the observation says 50, and the villager is still neutral.
function ValleyStats({ obs, moods }) {
  return (
    <>
      <dl class="stats inventory" aria-label="Inventory">
        {INVENTORY.map((k) => <Row name={k} id={k} value={obs.inventory[k]} />)}
      </dl>
      <dl class="stats" aria-label="Villagers">
        {obs.relationships.map((r, i) => (
          <Row
            name={`villager ${i + 1}`}
            id={`relationship-${i}`}
            value={<>{r} <small data-mood={i}>{VALLEY_MOODS[moods[i]]}</small></>}
          />
        ))}
      </dl>
    </>
  );
}

function BackwardsStats({ obs }) {
  return (
    <dl class="stats" aria-label="Position">
      <Row name="Farm Value" id="farmValue" value={obs.farmValue} />
      <Row name="position" id="position" value={`x ${obs.x}, y ${obs.y}`} />
      <Row name="facing" id="facing" value={FACING[obs.facing]} />
    </dl>
  );
}

export function StatusPanel({ session, onReset }) {
  const { observation: obs, envId, spec } = session;
  if (!obs) return null;
  const win = windowCells(envId, obs);
  const lastAction = session.actions.length ? spec.actions[session.actions.at(-1)] : null;
  return (
    <section class="panel status" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <dl class="stats headline">
        <Row name="steps left" id="stepsLeft" value={obs.stepsLeft} />
        <Row name="return" id="return" value={formatReturn(session.ret)} />
        <Row name="last reward" id="lastReward" value={formatReturn(session.lastReward)} />
      </dl>
      <p class="last-action" data-stat="lastAction">
        {lastAction === null ? (
          'No action yet.'
        ) : (
          <>
            Last action: <strong>{lastAction}</strong>
            {session.lastBy && session.lastBy !== 'you' ? ` (by ${session.lastBy})` : ''} —{' '}
            <span class={session.lastLegal ? 'legal' : 'illegal'} data-stat="legal">
              {session.lastLegal ? '✓ legal' : '✗ illegal: nothing happened but the step was spent'}
            </span>
          </>
        )}
      </p>
      {envId === 'ValleyFarm-v0' ? <ValleyStats obs={obs} moods={session.env.state().villagers.map((v) => v.mood)} /> : <BackwardsStats obs={obs} />}
      <p class="here" data-stat="here">
        Here: {cellLabel(win[12])}.{' '}
        <span class="around">
          {AROUND.map(([dir, i]) => `${dir}: ${cellLabel(win[i]).toLowerCase()}`).join('; ')}.
        </span>
      </p>
      {session.done && (
        <div class="episode-over" role="status" data-testid="episode-over">
          <strong>Episode over</strong> — return {formatReturn(session.ret)} in {session.actions.length} steps.
          {!session.replay && (
            <button type="button" class="primary" onClick={onReset}>New episode <kbd>N</kbd></button>
          )}
        </div>
      )}
    </section>
  );
}
