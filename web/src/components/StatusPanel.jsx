// StatusPanel.jsx — everything the observation holds, in words, plus the last reward, the
// episode return and whether the last action was legal; at the end, the episode's result.
import { formatReturn } from '../model/session.js';
import { cellLabel } from '../model/labels.js';
import { EventLog } from './EventLog.jsx';
import { Announcer } from './Announcer.jsx';
import { ParLine, EpisodeEnd } from './Par.jsx';

const AROUND = [
  ['north', 7],
  ['east', 13],
  ['south', 17],
  ['west', 11],
];

function Row({ name, value, id }) {
  return (
    <div class="stat">
      <dt>{name}</dt>
      <dd data-stat={id}>{value}</dd>
    </div>
  );
}

// The farm's own rows (its adapter's statusGroups): a note, such as a villager's mood,
// carries a data attribute (data-mood="0") for the tests.
function Group({ group }) {
  return (
    <dl class={`stats${group.class ? ` ${group.class}` : ''}`} aria-label={group.label}>
      {group.rows.map((row) => (
        <Row
          name={row.name}
          id={row.id}
          value={
            row.note ? (
              <>
                {row.value} <small data-mood={row.note.mood}>{row.note.text}</small>
              </>
            ) : (
              row.value
            )
          }
        />
      ))}
    </dl>
  );
}

/** ending: { par, best, newBest, onWatch, onTryAgain, onShare } for the par line and the end panel. */
export function StatusPanel({ session, onReset, ending = {} }) {
  const { observation: obs, spec, farm } = session;
  if (!obs) return null;
  const win = farm.windowCells(obs);
  const lastAction = session.actions.length ? spec.actions[session.actions.at(-1)] : null;
  return (
    <section class="panel status" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <dl class="stats headline">
        <Row name="steps left" id="stepsLeft" value={obs.stepsLeft} />
        <Row name="return" id="return" value={formatReturn(session.ret)} />
        <Row name="last reward" id="lastReward" value={formatReturn(session.lastReward)} />
      </dl>
      <ParLine par={ending.par} best={ending.best ?? null} />
      <p class="last-action" data-stat="lastAction">
        {lastAction === null ? (
          'No action yet.'
        ) : (
          <>
            Last action: <strong>{lastAction}</strong>
            {session.lastBy && session.lastBy !== 'you' ? ` (by ${session.lastBy})` : ''} —{' '}
            <span class={session.lastLegal ? 'legal' : 'illegal'} data-stat="legal">
              {session.lastLegal
                ? '✓ legal'
                : `✗ illegal: ${session.lastIllegal?.why.text ?? 'it changed nothing'}; only the step was spent`}
            </span>
          </>
        )}
      </p>
      {farm.statusGroups(obs, session.state).map((group) => (
        <Group group={group} />
      ))}
      <p class="here" data-stat="here">
        Here: {cellLabel(win[12])}.{' '}
        <span class="around">{AROUND.map(([dir, i]) => `${dir}: ${cellLabel(win[i]).toLowerCase()}`).join('; ')}.</span>
      </p>
      <EventLog log={session.log} empty={farm.emptyLog} />
      <Announcer session={session} />
      {session.done && <EpisodeEnd session={session} onReset={onReset} {...ending} />}
    </section>
  );
}
