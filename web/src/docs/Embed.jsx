// Embed.jsx — a live farm with no page chrome, for an iframe in any page:
//
//   <iframe src="https://…/index.html#/embed?env=valley&seed=7&view=world&controls=1"
//           width="360" height="480" title="Valley Farm"></iframe>
//
// Parameters: env (an env id, or a farm adapter's short name: valley | backwards),
// seed (an integer; absent: a random one per reset), view (world | eyes), controls (1 | 0:
// with 0 only the board and the status line are shown). The farm is the page's own model
// (FarmApp, without pars) and Board, so it plays exactly like the game, and main.jsx gives
// it the game's console handle and postMessage interface. A parameter is a stranger's text
// (anyone can link to the embed, with a value of megabytes): an error quotes at most
// MAX_QUOTED characters of it.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { envSpecs } from 'valley-farm';
import { Board } from '../components/Board.jsx';
import { useModel } from '../components/useModel.js';
import { formatReturn } from '../model/session.js';
import { FarmApp } from '../model/app.js';
import { envMeta, actionForKey } from '../model/envMeta.js';
import { defaultFarm, farmBySlug } from '../model/farms/index.js';
import { cut, listed } from '../model/cut.js';
import './docs.css';

const MOVE_GLYPH = { north: '↑', south: '↓', east: '→', west: '←' };
/** The most characters of a parameter's value an error quotes (cut.js marks the rest). */
export const MAX_QUOTED = 40;
const quoted = (value) => `'${cut(value, MAX_QUOTED)}'`;

/**
 * The embed's settings from its parameters: a URLSearchParams, a query string ("env=…&seed=7",
 * with or without a leading "?" or "#/embed?") or a plain object. Returns { envId, seed, view,
 * controls, errors } — unknown values fall back to defaults and are listed in errors.
 */
export function parseEmbedParams(params) {
  let get;
  if (params instanceof URLSearchParams) get = (k) => params.get(k);
  else if (typeof params === 'string') {
    const q = new URLSearchParams(params.includes('?') ? params.slice(params.indexOf('?') + 1) : params);
    get = (k) => q.get(k);
  } else get = (k) => (params?.[k] === undefined || params?.[k] === null ? null : String(params[k]));
  const errors = [];
  const rawEnv = get('env') ?? defaultFarm.id;
  let envId = farmBySlug(rawEnv)?.id ?? rawEnv;
  if (!envSpecs[envId]) {
    errors.push(`unknown env ${quoted(rawEnv)} (use ${Object.keys(envSpecs).join(' or ')})`);
    envId = defaultFarm.id;
  }
  const rawSeed = get('seed');
  let seed;
  if (rawSeed !== null && rawSeed !== '') {
    if (/^\d+$/.test(rawSeed) && Number.isSafeInteger(Number(rawSeed))) seed = Number(rawSeed);
    else errors.push(`seed ${quoted(rawSeed)} is not an integer from 0 to 2^53 - 1; using a random seed`);
  }
  let view = get('view') ?? 'world';
  if (view !== 'world' && view !== 'eyes') {
    errors.push(`view ${quoted(view)} is not world or eyes`);
    view = 'world';
  }
  const controls = get('controls') !== '0';
  return { envId, seed, view, controls, errors };
}

function Farm({ session, settings }) {
  useModel(session);
  const { seed, controls } = settings;
  const { envId } = session; // a parent page's make() may switch the farm
  const meta = envMeta[envId];
  const spec = envSpecs[envId];
  const legal = session.legal;
  const facing = session.farm.facing(session.observation);
  const onKey = (e) => {
    if (!controls || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = actionForKey(envId, e.key);
    if (a >= 0 && !session.done) {
      session.act(a);
      e.preventDefault();
    }
  };
  return (
    <div class="vf-embed" data-env={envId} onKeyDown={onKey}>
      <h1 class="sr-only">
        {meta.title}, seed {String(session.seed)}
      </h1>
      <div class="vf-embed-board">
        <Board
          cells={session.cells}
          pos={session.pos}
          facing={facing}
          view={session.view}
          title={`${meta.title} map, seed ${String(session.seed)}, ${session.view === 'eyes' ? "agent's eyes" : 'world'} view`}
          onCell={controls ? (x, y) => session.clickCell(x, y) : undefined}
        />
      </div>
      <p class="vf-embed-status" aria-live="polite">
        <span data-stat="stepsLeft">{session.observation.stepsLeft}</span> steps left · return{' '}
        <span data-stat="return">{formatReturn(session.ret)}</span>
        {session.lastReward !== null && (
          <>
            {' '}
            · last <span data-stat="last">{session.lastLegal ? formatReturn(session.lastReward) : 'illegal'}</span>
          </>
        )}
        {session.done && <strong> · episode over</strong>}
      </p>
      {controls && (
        <div class="vf-embed-controls" role="group" aria-label={`${meta.title} actions`}>
          {spec.actions.map((name, id) => (
            <button
              type="button"
              class={`docs-btn vf-embed-action${legal[id] ? '' : ' illegal'}`}
              data-action={name}
              title={`${meta.actions[name].hint} (key ${meta.actions[name].key})${legal[id] ? '' : ` — illegal now: ${session.reasons[id]?.text ?? ''}`}`}
              disabled={session.done}
              onClick={() => session.act(id)}
            >
              {MOVE_GLYPH[name] ? <span aria-hidden="true">{MOVE_GLYPH[name]} </span> : null}
              {name}
            </button>
          ))}
          <button type="button" class="docs-btn docs-btn-reset" data-action="reset" onClick={() => session.reset(seed)}>
            Reset
          </button>
        </div>
      )}
      <p class="vf-embed-credit">
        <a href="./index.html#/docs" target="_blank" rel="noopener">
          {envId}
        </a>{' '}
        · seed {String(session.seed)}
      </p>
    </div>
  );
}

/** The embed's model: a FarmApp that shows no par (pars are the game page's). */
export const createEmbedApp = () => new FarmApp({ pars: false });

/**
 * The embed view: params as for parseEmbedParams (the part of #/embed?… after the "?"); app
 * the model to show (default: one of its own); onReady(app) once its first farm is playable.
 */
export function Embed({ params, app: given, onReady }) {
  const settings = parseEmbedParams(params);
  const key = `${settings.envId}|${settings.seed}|${settings.view}`;
  const own = useMemo(() => given ?? createEmbedApp(), [given]);
  const [session, setSession] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    const s = own.session;
    let alive = true;
    s.open(settings.envId, { seed: settings.seed })
      .then(() => {
        s.setView(settings.view);
        own.ready = true;
        if (alive) setSession(s);
        onReady?.(own);
      })
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
    };
  }, [key]);
  return (
    <main class="vf-embed-root">
      {settings.errors.length > 0 && (
        <p class="vf-embed-warn" role="alert">
          Embed parameters: {listed(settings.errors)}
        </p>
      )}
      {error ? (
        <p class="docs-error" role="alert">
          The farm could not start: {error}
        </p>
      ) : session ? (
        <Farm session={session} settings={settings} />
      ) : (
        <p>Loading the farm…</p>
      )}
    </main>
  );
}

export default Embed;
