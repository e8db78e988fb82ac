// main.jsx — starts the page. Two entries share one build:
//   #/embed?env=…&seed=…&view=…&controls=…  a compact live farm for iframes (docs/Embed.jsx)
//   anything else                            the game: the model, the UI, the keyboard, the URL
//                                            fragment, the console handle (window.valleyFarm)
//                                            and the postMessage interface
import { render } from 'preact';
import { App } from './components/App.jsx';
import { Embed, createEmbedApp } from './docs/Embed.jsx';
import { FarmApp } from './model/app.js';
import { createHandle } from './model/handle.js';
import { installMessages } from './model/messages.js';
import { useEngineBytes } from 'valley-farm';
import playEngineUrl from '../../wasm/valley_farm_play.wasm?url';
import './style.css';

const root = document.getElementById('app');
root.textContent = ''; // the static "Loading…" placeholder of index.html
const embedQuery = (hash) => new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');
const isEmbed = (hash) => hash.startsWith('#/embed');
const startHash = location.hash;
// the two entries start differently: crossing between them by a fragment change reloads
window.addEventListener('hashchange', () => {
  if (isEmbed(location.hash) !== isEmbed(startHash)) location.reload();
});

// Both entries answer the console (window.valleyFarm) and a parent page's messages alike.
const installHandle = (app) => {
  const handle = createHandle(app);
  window.valleyFarm = handle;
  installMessages(window, handle, app.session);
};

// The page plays with valley_farm_play.wasm, the engine without its planner (index.html
// preloads it): only the par's Worker plans, and it loads the full valley_farm.wasm. Should
// this fetch fail, the API loads its default, the full engine, on the first make().
async function usePlayEngine() {
  try {
    const response = await fetch(playEngineUrl);
    if (response.ok) useEngineBytes(await response.arrayBuffer());
  } catch {
    /* the default engine then */
  }
}

if (isEmbed(startHash)) {
  const app = createEmbedApp();
  let installed = false;
  const onReady = () => {
    if (installed) return;
    installed = true;
    installHandle(app);
    app.measure(app.session.envId);
  };
  const show = () => isEmbed(location.hash) && render(<Embed params={embedQuery(location.hash)} app={app} onReady={onReady} />, root);
  usePlayEngine().then(() => {
    show();
    window.addEventListener('hashchange', show);
  });
} else {
  const app = new FarmApp();
  render(<App app={app} />, root);

  window.addEventListener('keydown', (event) => {
    if (app.key(event)) event.preventDefault();
  });
  window.addEventListener('hashchange', () => isEmbed(location.hash) || app.applyHash(location.hash));

  usePlayEngine()
    .then(() => app.start(location.hash))
    .then(() => installHandle(app));
}
