// Overview.jsx — the docs' front page: what the project is, where to go, both farms live.
import { DocLink } from '../components/Section.jsx';
import { EmbedFrame } from './EmbedPage.jsx';
import { farms } from '../../model/farms/index.js';

export function Overview() {
  return (
    <article class="docs-page" data-page="home">
      <h1>Valley Farm documentation</h1>
      <p class="docs-lead">
        Two small reinforcement-learning environments on grid farms: a C engine compiled to WebAssembly, a Gymnasium-style JavaScript API,
        and this site to play them and run agents. Every rule on these pages comes with a live widget running the real engine: press the
        actions and watch the rule happen.
      </p>
      <div class="docs-cards">
        {farms.map(({ spec, slug, title, blurb }) => (
          <section class="docs-card" aria-labelledby={`card-${slug}`}>
            <h2 id={`card-${slug}`}>
              <DocLink to={`/${slug}`}>{title}</DocLink> <code>{spec.id}</code>
            </h2>
            <p>{blurb}</p>
            <p class="docs-hint">
              {spec.width} × {spec.height}, {spec.actions.length} actions, {spec.horizon} steps, {spec.obsSize}-integer observation.
            </p>
            <EmbedFrame opts={{ env: spec.id, seed: 7, view: 'world', controls: true }} title={`${title}, seed 7, live`} />
          </section>
        ))}
      </div>
      <h2>Where to go</h2>
      <ul>
        <li>
          The rules of{' '}
          {farms.map((f, i) => (
            <>
              {i ? (i === farms.length - 1 ? ' and ' : ', ') : ''}
              <DocLink to={`/${f.slug}`}>{f.title}</DocLink>
            </>
          ))}
          , with live widgets.
        </li>
        <li>
          <DocLink to="/api">API reference</DocLink>: <code>make</code>, <code>makeVec</code>, every method, with runnable examples.
        </li>
        <li>
          <DocLink to="/tutorial">Write your first agent</DocLink>: from random to a heuristic, with the returns plotted.
        </li>
        <li>
          <DocLink to="/embed">Embed a live farm</DocLink> in any page with one line of HTML.
        </li>
        <li>
          <DocLink to="/benchmark">Benchmark</DocLink>: the protocol, the baselines and the learners' results over training runs;{' '}
          <DocLink to="/speed">Speed</DocLink> and <DocLink to="/architecture">Architecture</DocLink>.
        </li>
      </ul>
      <h2>Five-line start</h2>
      <pre class="docs-pre" tabIndex={0}>
        <code>{`import { make } from 'valley-farm';
const env = await make('ValleyFarm-v0');
let { observation } = env.reset({ seed: 42 });
const { reward, terminated } = env.step(11); // wait
console.log(env.render());`}</code>
      </pre>
    </article>
  );
}
