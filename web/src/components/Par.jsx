// Par.jsx — the par of the map in play (the best-known return, from the committed data or
// the planner), the heuristic's return and the visitor's best on it; and, at the end of an
// episode, how the return compares, with "Watch the best-known play" and "Try again".
import { formatReturn } from '../model/session.js';

/** The par line under the headline stats. */
export function ParLine({ par, best }) {
  if (!par) return null;
  if (par.status === 'computing')
    return (
      <p class="par" data-testid="par">
        Par: <progress aria-label="Planning this map's par" /> planning the best play for this map…
      </p>
    );
  if (par.status !== 'ready')
    return (
      <p class="par" data-testid="par">
        Par: not known for this map ({par.reason}).
      </p>
    );
  return (
    <p class="par" data-testid="par">
      Par <strong data-stat="par">{formatReturn(par.best)}</strong>
      {par.optimal ? ' (optimal)' : ''} · heuristic <span data-stat="heuristic">{formatReturn(par.heuristic)}</span>
      {best !== null && (
        <>
          {' '}
          · your best <span data-stat="personalBest">{formatReturn(best)}</span>
        </>
      )}
      <small>
        {' '}
        — {par.source === 'data' ? "the planner's stored best for this evaluation seed" : "the engine's planner, run for this map"}
      </small>
    </p>
  );
}

/** The end-of-episode panel. */
export function EpisodeEnd({ session, par, newBest, onReset, onWatch, onTryAgain, onShare }) {
  const ret = session.ret;
  const ready = par?.status === 'ready';
  const verdict = !ready
    ? null
    : ret >= par.best
      ? 'You matched the best-known play!'
      : ret > par.heuristic
        ? `You beat the heuristic (${formatReturn(par.heuristic)}); par is ${formatReturn(par.best)}.`
        : `Par is ${formatReturn(par.best)} and the heuristic gets ${formatReturn(par.heuristic)}: watch how the best-known play does it.`;
  return (
    <div class="episode-over" role="status" data-testid="episode-over">
      <p>
        <strong>Episode over</strong> — return {formatReturn(ret)} in {session.actions.length} steps.
        {ready && <span data-stat="ofPar"> That is {Math.round((100 * ret) / (par.best || 1))} % of par.</span>}
        {newBest && <strong class="new-best"> A new personal best on this map!</strong>}
      </p>
      {verdict && <p class="verdict">{verdict}</p>}
      {!session.replay && (
        <div class="end-actions">
          <button type="button" class="primary" onClick={onReset}>
            New episode <kbd>N</kbd>
          </button>
          <button type="button" onClick={onTryAgain}>
            Try again (same map)
          </button>
          {ready && (
            <button type="button" onClick={onWatch} data-testid="watch-best">
              Watch the best-known play
            </button>
          )}
          <button type="button" onClick={onShare}>
            Share your replay
          </button>
        </div>
      )}
    </div>
  );
}
