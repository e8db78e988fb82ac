// EventLog.jsx — what the last steps did and what each reward was for, newest first, from
// the engine's step events ("gift to villager 2: relationship 40 → 47.5 (neutral), +3.75").
const SHOWN = 8;

/** empty: what the farm's log says before its first event (its adapter's emptyLog). */
export function EventLog({ log, empty }) {
  const recent = log.slice(-SHOWN).reverse();
  return (
    <section class="event-log" aria-labelledby="event-log-title">
      <h3 id="event-log-title">What happened</h3>
      {recent.length === 0 ? (
        <p class="event-empty">{empty}</p>
      ) : (
        // it scrolls past a few lines: focusable, so the keyboard can scroll it too
        <ol class="events" data-testid="event-log" tabindex={0} aria-labelledby="event-log-title">
          {recent.map((e) => (
            <li key={`${e.step}-${e.code}-${e.x}-${e.y}`} class={e.reward > 0 ? 'paid' : ''} data-code={e.code}>
              <span class="event-step">step {e.step}</span> {e.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
