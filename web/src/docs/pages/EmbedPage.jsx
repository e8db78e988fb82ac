// EmbedPage.jsx — the one line of HTML that puts a live farm into any page, its parameters,
// a builder for the line, and the embed itself, live.
import { useState } from 'preact/hooks';
import { envSpecs } from 'valley-farm';
import { Section, Toc } from '../components/Section.jsx';

export const EMBED_SECTIONS = [
  ['line', 'The line'],
  ['parameters', 'Parameters'],
  ['builder', 'Build your line'],
  ['safety', 'Safety'],
  ['notes', 'Notes'],
];

/** The embed's address relative to the site (what the docs' own iframes use). */
export const embedSrc = ({ env, seed, view, controls }) =>
  `./index.html#/embed?env=${encodeURIComponent(env)}${seed !== '' && seed !== undefined ? `&seed=${encodeURIComponent(seed)}` : ''}&view=${view}&controls=${controls ? 1 : 0}`;

/** The absolute address, for copying into another site. */
const absolute = (src) => {
  const base =
    typeof location !== 'undefined' && /^https?:/.test(location.href)
      ? new URL('./index.html', location.href).href
      : 'https://YOUR-HOST/valley-farm/index.html';
  return src.replace('./index.html', base);
};

export const iframeLine = (opts, host = true) => {
  const src = host ? absolute(embedSrc(opts)) : embedSrc(opts);
  return `<iframe src="${src}" width="360" height="${opts.controls ? 520 : 420}" style="border:0" title="${opts.env} live farm"></iframe>`;
};

export function EmbedFrame({ opts, title }) {
  return (
    <iframe
      class="docs-embed-frame"
      src={embedSrc(opts)}
      width="360"
      height={opts.controls ? 520 : 420}
      title={title ?? `${opts.env}, seed ${opts.seed}, live`}
      loading="lazy"
    />
  );
}

function Builder() {
  const [opts, setOpts] = useState({ env: 'ValleyFarm-v0', seed: '7', view: 'world', controls: true });
  const set = (k) => (e) =>
    setOpts({ ...opts, [k]: e.currentTarget.type === 'checkbox' ? e.currentTarget.checked : e.currentTarget.value });
  const line = iframeLine(opts);
  return (
    <div class="docs-builder">
      <div class="docs-builder-form">
        <label>
          env{' '}
          <select value={opts.env} onChange={set('env')}>
            {Object.keys(envSpecs).map((id) => (
              <option value={id}>{id}</option>
            ))}
          </select>
        </label>
        <label>
          seed <input class="docs-num" inputMode="numeric" value={opts.seed} onInput={set('seed')} />
        </label>
        <label>
          view{' '}
          <select value={opts.view} onChange={set('view')}>
            <option value="world">world</option>
            <option value="eyes">eyes</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={opts.controls} onChange={set('controls')} /> controls
        </label>
      </div>
      <label for="embed-line" class="docs-code-label">
        Your line (copy it into any HTML file)
      </label>
      <textarea id="embed-line" class="docs-code-input" rows={3} readOnly value={line} onFocus={(e) => e.currentTarget.select()} />
      <EmbedFrame opts={opts} title="Preview of your embed" />
    </div>
  );
}

export function EmbedPage() {
  const example = { env: 'ValleyFarm-v0', seed: 7, view: 'world', controls: true };
  return (
    <article class="docs-page" data-page="embed">
      <h1>Embed a live farm</h1>
      <p class="docs-lead">One line of HTML puts a playable farm into any page: an iframe of this site's embed view.</p>
      <Toc page="embed" sections={EMBED_SECTIONS} />
      <Section page="embed" id="line" title="The line">
        <pre class="docs-pre" data-embed-line tabIndex={0}>
          <code>{iframeLine(example)}</code>
        </pre>
        <p>It shows this (live, the real engine):</p>
        <EmbedFrame opts={example} title="Valley Farm, seed 7, live" />
      </Section>
      <Section page="embed" id="parameters" title="Parameters">
        <div class="docs-table-wrap">
          <table class="docs-table" data-table="embed-params">
            <thead>
              <tr>
                <th scope="col">parameter</th>
                <th scope="col">values</th>
                <th scope="col">default</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">
                  <code>env</code>
                </th>
                <td>
                  {Object.keys(envSpecs).map((id) => (
                    <code>{id} </code>
                  ))}{' '}
                  (or <code>valley</code>, <code>backwards</code>)
                </td>
                <td>
                  <code>ValleyFarm-v0</code>
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>seed</code>
                </th>
                <td>
                  an integer 0 … 2<sup>53</sup> − 1: the same farm and the same outcome for everyone
                </td>
                <td>random at each reset</td>
              </tr>
              <tr>
                <th scope="row">
                  <code>view</code>
                </th>
                <td>
                  <code>world</code> (everything, hidden values in the tooltips) or <code>eyes</code> (only what the agent has seen)
                </td>
                <td>
                  <code>world</code>
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>controls</code>
                </th>
                <td>
                  <code>1</code>: action buttons, Reset and the keyboard (arrows, WASD, the action keys); <code>0</code>: the board alone
                </td>
                <td>
                  <code>1</code>
                </td>
              </tr>
            </tbody>
          </table>
        </div>
        <p>The backwards farm, through the agent's eyes, without controls:</p>
        <EmbedFrame
          opts={{ env: 'BackwardsValleyFarm-v0', seed: 3, view: 'eyes', controls: false }}
          title="Backwards farm, seed 3, agent's eyes"
        />
      </Section>
      <Section page="embed" id="builder" title="Build your line">
        <Builder />
      </Section>
      <Section page="embed" id="safety" title="Safety">
        <p>
          Any page can frame this site and send it messages, and the site runs code that visitors paste, so it assumes neither is friendly.
          Code the site did not ship (the editor, <code>setAgent({'{ code }'})</code>, these docs' examples) runs in a Worker inside a
          sandboxed frame with an opaque origin: it cannot read this site's storage or cookies, and its requests here carry no credentials
          and get no readable answer. The game page and this embed (the same <code>postMessage</code> interface: a <code>ready</code> event,
          then answers such as <code>status</code>) answer only reads and play unless the iframe URL opts in (in its query, before the{' '}
          <code>#</code>):
        </p>
        <ul>
          <li>
            <code>?allow=code</code>: messages may also run code with <code>setAgent({'{ code }'})</code>;
          </li>
          <li>
            <code>?origin=https://your.site</code>: only these parent origins may send messages, and only they hear back.
          </li>
        </ul>
        <p>
          Reads such as <code>status</code> are answered at once, whatever is waiting; messages are refused past 64 KiB, and calls past 256
          waiting; replay files past 64 KiB and links past 2,048 characters. A bad parameter is named with a short quote of its value. The
          built site has a Content Security Policy with no inline script. Details: <code>web/README.md</code>, Embedding.
        </p>
      </Section>
      <Section page="embed" id="notes" title="Notes">
        <ul>
          <li>
            The line works from any page, including a blank HTML file opened from disk, as long as this site is served over http(s) (the
            engine is loaded with <code>fetch</code>).
          </li>
          <li>Each embed is independent: its own engine, its own episode. Reset starts the same seed again.</li>
          <li>
            Inside this site the address is relative (<code>{embedSrc(example)}</code>), so a copy of <code>dist/</code> on any host works
            unchanged.
          </li>
        </ul>
      </Section>
    </article>
  );
}
