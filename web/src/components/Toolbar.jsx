// Toolbar.jsx — seed, new episode, today's map, and the choice of view (world / agent's eyes).
export function Toolbar({ session, onReset, onDaily }) {
  const { seedText, seed, view } = session;
  return (
    <div class="toolbar">
      <form
        class="seed-form"
        onSubmit={(e) => {
          e.preventDefault();
          onReset();
        }}
      >
        <label for="seed-input">Seed</label>
        <input
          id="seed-input"
          inputMode="numeric"
          autoComplete="off"
          placeholder="random"
          value={seedText}
          onInput={(e) => session.setSeedText(e.currentTarget.value)}
          aria-describedby="seed-now"
        />
        <button type="submit" class="primary" aria-keyshortcuts="N">
          New episode <kbd>N</kbd>
        </button>
      </form>
      {onDaily && (
        <button type="button" onClick={onDaily} title="The same map for everyone today (the seed is the UTC date)">
          Today's map
        </button>
      )}
      <span id="seed-now" class="seed-now">
        this map: seed <output data-testid="episode-seed">{String(seed ?? '–')}</output>
      </span>
      <div class="view-switch" role="group" aria-label="View">
        <button type="button" aria-pressed={view === 'world' ? 'true' : 'false'} onClick={() => session.setView('world')}>
          World
        </button>
        <button type="button" aria-pressed={view === 'eyes' ? 'true' : 'false'} onClick={() => session.setView('eyes')}>
          Agent's eyes
        </button>
      </div>
    </div>
  );
}
