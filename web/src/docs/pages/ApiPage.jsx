// ApiPage.jsx — the API reference: make, makeVec, every method, observation and state
// shapes, errors and the snapshot format, each with a runnable example.
import { envSpecs } from 'valley-farm';
import { farms } from '../../model/farms/index.js';
import { CodeBox } from '../components/CodeBox.jsx';
import { Section, Toc, DocLink, FarmLinks } from '../components/Section.jsx';
import { examples } from '../model/examples.js';
import { LayoutTable } from '../components/SpecTables.jsx';

export const API_SECTIONS = [
  ['make', 'make(id) and envIds'],
  ['reset', 'env.reset({ seed })'],
  ['step', 'env.step(action)'],
  ['legal', 'env.legalActions()'],
  ['events', 'Step events'],
  ['state', 'env.state()'],
  ['render', 'env.render()'],
  ['snapshot', 'env.snapshot() and env.restore(bytes)'],
  ['close', 'env.close()'],
  ['makevec', 'makeVec(id, numEnvs)'],
  ['observation', 'Observation shapes'],
  ['errors', 'Errors'],
  ['snapshot-format', 'Snapshot format'],
  ['sandbox', 'About these examples'],
];

/** The observation object's shape, from the spec: { view[25], center, inventory: { seeds, … }, … }. */
function observationShape(spec) {
  const part = ([name, box]) =>
    box.shape ? `${name}${box.shape.length ? `[${box.shape.join('×')}]` : ''}` : `${name}: { ${Object.keys(box).join(', ')} }`;
  return `{ ${Object.entries(spec.observation).map(part).join(', ')} }`;
}

const Ex = ({ id }) => <CodeBox id={id} title={`Example: ${API_SECTIONS.find(([k]) => k === id)?.[1] ?? id}`} code={examples[id]} />;
const Sec = ({ id, children }) => (
  <Section page="api" id={id} title={API_SECTIONS.find(([k]) => k === id)[1]}>
    {children}
  </Section>
);

export function ApiPage() {
  return (
    <article class="docs-page" data-page="api">
      <h1>
        API reference <code>valley-farm</code>
      </h1>
      <p class="docs-lead">
        One ES module, the same in Node ≥ 20 and in browsers (any with WebAssembly SIMD: Chrome 91, Firefox 89, Safari 16.4 and later),
        wrapping the C engine compiled to WebAssembly in a Gymnasium-style API. Every example below runs here, in a sandboxed Web Worker:
        edit it and press Run.
      </p>
      <pre class="docs-pre" tabIndex={0}>
        <code>{`import { make, makeVec, envIds, envSpecs } from 'valley-farm';`}</code>
      </pre>
      <Toc page="api" sections={API_SECTIONS} />
      <Sec id="make">
        <p>
          <code>envIds</code> is <code>{JSON.stringify(Object.keys(envSpecs))}</code>. <code>await make(id)</code> returns a new env; an
          unknown id rejects with an Error listing the ids. <code>env.id</code> is the id, <code>env.actionSpace</code> is{' '}
          <code>{'{ n, names }'}</code> (n = 12 or 11), <code>env.observationSpace</code> describes every observation field (shape, min,
          max). As in Gymnasium, <code>env.spec</code> is <code>{'{ id, maxEpisodeSteps: null }'}</code> (no time limit truncates an
          episode: the rules end every one at <code>envSpecs[id].horizon</code>, terminated) and <code>env.metadata.renderModes</code> is{' '}
          <code>['ansi']</code>. Every space has <code>seed(s)</code> (later samples drawn without a source repeat from <var>s</var>),{' '}
          <code>sample()</code> and <code>contains(x)</code>; <code>{'env.actionSpace.sample({ mask: env.legalActions() })'}</code> draws a
          legal action. <code>envSpecs[id]</code> holds the same facts (actions, tiles, observation, flat layout, and in <code>fields</code>{' '}
          each field's bounds and role) as plain data, usable before any env is made: the engine's own description of the farm, which its C
          function <code>vf_spec_json</code> gives every binding.
        </p>
        <Ex id="make" />
      </Sec>
      <Sec id="reset">
        <p>
          Starts an episode and returns <code>{'{ observation, info }'}</code>. A seed is an integer 0 … 2<sup>53</sup> − 1 or a BigInt 0n …
          2<sup>64</sup> − 1; the same seed gives the same layout, values and trajectory everywhere (every browser, Node, the native C
          build). Without a seed (<code>reset()</code> or <code>reset({'{}'})</code>) a fresh one is drawn and reported in{' '}
          <code>info.seed</code>, which replays the episode when passed back. As in Gymnasium, a seeded reset also seeds the generator that
          later unseeded resets draw from, so a whole run repeats from its first seed. <code>{'reset({ seed, options })'}</code> is
          accepted; these envs take no options yet (<code>{'{}'}</code> or none).
        </p>
        <Ex id="reset" />
      </Sec>
      <Sec id="step">
        <p>
          Plays one action (an integer 0 … n − 1) and returns <code>{'{ observation, reward, terminated, truncated, info }'}</code>.{' '}
          <code>info</code> has <code>step</code> (actions taken), <code>seed</code> and <code>actionWasLegal</code>: an illegal action is
          played as a wait and spends the step. <code>truncated</code> is always false; <code>terminated</code> becomes true at the horizon
          (each farm's rules: <FarmLinks />
          ). On an illegal step only, <code>info.illegalReason</code> is <code>{'{ code, text }'}</code>: the rule that blocked the action,
          e.g. <code>{"{ code: 'no-seeds', text: 'no seeds left' }"}</code>. <code>info.events</code> lists what happened in the step and
          what each reward was for (see <DocLink to="/api/events">step events</DocLink>, with <code>{'make(id, { events: true })'}</code>).
        </p>
        <Ex id="step" />
      </Sec>
      <Sec id="legal">
        <p>
          <code>Uint8Array(n)</code>, 1 where the action would change more than the clock right now. <code>env.illegalReasons()</code>{' '}
          gives, per action, <code>null</code> where it is legal and otherwise <code>{'{ code, text }'}</code>, the rule that blocks it now.
          The codes are listed with each farm's rules (<FarmLinks section="why-an-action-is-illegal" />
          ).
        </p>
        <Ex id="legal" />
      </Sec>
      <Sec id="events">
        <p>
          An env made with <code>{'make(id, { events: true })'}</code> adds <code>info.events</code> to every step: what the step did, in
          order, each <code>{'{ code, text, reward, x, y, subject, count, count2, before, after }'}</code>. The rewards of a step's events
          add up to its reward exactly, so every point is accounted for: <code>gift</code> (relationship before → after, +0.5 a point),{' '}
          <code>sold</code> (crops, products, the price multiplier and the coins), <code>collected</code>, <code>harvested</code>, and in
          the backwards farm <code>crop-harvested</code>, <code>animal-paid</code>, <code>villager-paid</code>. Others earn nothing but
          teach: <code>product</code> (an animal made one), <code>hungry</code>, <code>crop-ready</code>, <code>animal-unseen</code> (it
          reached Thriving out of view: no bonus). Each field's meaning per code is in <code>vf_event_kind</code> in the C header and{' '}
          <code>StepEvent</code> in the types. Explaining costs a copy of the state per step, so it is off by default; it never changes a
          trajectory.
        </p>
        <Ex id="events" />
      </Sec>
      <Sec id="state">
        <p>
          The full hidden state as plain JSON-serialisable data, for debugging and drawing; a fresh object each call, so changing it changes
          nothing in the env. Its shape is each farm's own, given with the farm's rules (<FarmLinks section="the-full-state" />
          ).
        </p>
        <Ex id="state" />
      </Sec>
      <Sec id="render">
        <p>A text picture of the full map, with a legend line for each symbol used and a status line.</p>
        <Ex id="render" />
      </Sec>
      <Sec id="snapshot">
        <p>
          <code>snapshot()</code> returns the complete state as a <code>Uint8Array</code>; <code>restore(bytes)</code> puts the env back
          exactly, so the next steps repeat exactly. It also works on an env that was never reset. Bytes that are not a snapshot of this env
          id throw and change nothing (<DocLink to="/api/snapshot-format">format</DocLink>).
        </p>
        <p>
          For search: <code>env.snapshotInto(buffer)</code> writes into your buffer without allocating; <code>env.stateHash()</code> is the
          engine's 64-bit state hash (a BigInt); <code>env.saveState()</code> and <code>env.loadState(state)</code> copy the state within
          the engine's memory, many times faster than bytes (<code>npm run bench</code> reports both rates).
        </p>
        <Ex id="snapshot" />
      </Sec>
      <Sec id="close">
        <p>
          Frees the engine's memory for this env; every later call throws, but <code>close()</code> again is harmless, as in Gymnasium. (An
          env that is garbage collected is freed too.)
        </p>
        <Ex id="close" />
      </Sec>
      <Sec id="makevec">
        <p>
          <code>await makeVec(id, numEnvs)</code> (numEnvs 1 … 65536) steps many envs in one call into the engine.{' '}
          <code>vec.reset(seed)</code> resets env <var>i</var> with seed + <var>i</var> and returns <code>{'{ observations }'}</code>;{' '}
          <code>vec.step(actions)</code> (an <code>Int32Array</code> or array of numEnvs integers) returns{' '}
          <code>
            {'{ observations: Int32Array(numEnvs × obsSize), rewards: Float64Array, terminated: Uint8Array, truncated: Uint8Array }'}
          </code>
          .
        </p>
        <ul>
          <li>
            <strong>Auto-reset:</strong> an env that terminates is reset within the same call with its previous episode's seed + numEnvs
            (env <var>i</var>'s <var>k</var>-th episode has seed + <var>i</var> + <var>k</var> × numEnvs); its observation is the first of
            the new episode, while its reward and terminated describe the step that ended the old one.
          </li>
          <li>
            <strong>Masks:</strong> <code>masks</code> (numEnvs × n bytes, 1 = legal) come from the same call, for the observation each env
            now shows; <code>makeVec(id, n, {'{ masks: false }'})</code> turns them off for speed.
          </li>
          <li>
            <strong>At a boundary</strong> (<code>terminated[i] = 1</code>): <code>observations</code> row <var>i</var> is the next
            episode's first, <code>finalObservations</code> row <var>i</var> the ended episode's last, and <code>episodeReturns[i]</code>,{' '}
            <code>episodeLengths[i]</code>, <code>episodeSeeds[i]</code> (a <code>BigUint64Array</code>) its return, length and seed. Other
            rows of these views hold stale values.
          </li>
          <li>
            <strong>Seeds:</strong> <code>vec.reset({'{ seed }'})</code> (or <code>vec.reset(seed)</code>); without one a fresh seed is
            drawn and returned as <code>seed</code>, always above every validation and test seed. <code>vec.resetEnvs(indices, seeds)</code>{' '}
            restarts chosen envs; <code>vec.episodeSeed(i)</code> tells an env's seed; <code>makeVec(id, n, {'{ levels: [...] }'})</code>{' '}
            plays a fixed list of levels (env <var>i</var>'s <var>k</var>-th episode: levels[(<var>i</var> + <var>k</var> n) mod L]).
          </li>
          <li>
            <strong>Spaces</strong> (Gymnasium's vector spaces): <code>vec.actionSpace</code> is the batched <code>MultiDiscrete</code> (
            <code>nvec</code>: n entries of the action count; <code>{'sample({ mask: masks })'}</code> draws a legal action for every env),{' '}
            <code>vec.singleActionSpace</code> one env's <code>Discrete</code> with the action names; <code>vec.observationSpace</code> is
            the batched flat <code>Box([n, obsSize])</code>, <code>vec.singleObservationSpace</code> one row of it,{' '}
            <code>Box([obsSize])</code>. <code>flatten(id, observation)</code> and <code>unflatten(id, observations, i)</code> convert
            between a row and the single env's observation object, so one policy runs on single envs, vector envs and this page.
          </li>
          <li>
            <strong>Infos:</strong> every result has Gymnasium's vector <code>infos</code>: <code>final_obs</code> and{' '}
            <code>{'episode: { r, l, seed }'}</code> (the same views as <code>finalObservations</code>, <code>episodeReturns</code>,{' '}
            <code>episodeLengths</code>, <code>episodeSeeds</code>), each beside its mask <code>_final_obs</code>, <code>_episode</code> of
            the envs whose episode ended in this step.
          </li>
          <li>
            <strong>Views:</strong> the returned arrays are views into the engine's memory that the next call overwrites: copy what you
            keep.
          </li>
          <li>
            Flat layout: <code>vec.obsSize</code> integers per env, as in each farm's flat layout (<FarmLinks section="flat-layout" />
            ).
          </li>
        </ul>
        <Ex id="makevec" />
      </Sec>
      <Sec id="observation">
        <ul>
          {farms.map((f) => (
            <li>
              <code>{f.id}</code>: <code>{observationShape(f.spec)}</code>.{' '}
              <DocLink to={`/${f.slug}/observation`}>Meaning of each field.</DocLink>
            </li>
          ))}
        </ul>
        <p>Observations are fresh objects: a later call never changes them.</p>
        {farms.map((f) => (
          <LayoutTable envId={f.id} />
        ))}
        <Ex id="observation" />
      </Sec>
      <Sec id="errors">
        <p>Bad input gets a thrown error saying what was wrong and what is allowed, and leaves the env exactly as it was:</p>
        <ul>
          <li>
            an action that is not an integer 0 … n − 1: <code>TypeError</code> (not a number) or <code>RangeError</code>;
          </li>
          <li>
            a bad seed: <code>TypeError</code> or <code>RangeError</code>;
          </li>
          <li>
            <code>step</code> before the first <code>reset</code> or after <code>terminated</code>: <code>Error</code> ("call reset()");
          </li>
          <li>
            <code>restore</code> with bytes that are not a snapshot of this env id: <code>Error</code> (or <code>TypeError</code> for a
            non-Uint8Array);
          </li>
          <li>
            any call after <code>close</code> but <code>close</code>: <code>Error</code>; an unknown id in <code>make</code>: a rejected
            promise.
          </li>
        </ul>
        <Ex id="errors" />
      </Sec>
      <Sec id="snapshot-format">
        <p>
          A snapshot is the complete state as bytes, the same on every platform (see <code>core/include/valley_farm.h</code>):
        </p>
        <div class="docs-table-wrap">
          <table class="docs-table" data-table="snapshot">
            <thead>
              <tr>
                <th scope="col">bytes</th>
                <th scope="col">content</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>0 … 3</td>
                <td>
                  <code>"VFSN"</code>
                </td>
              </tr>
              <tr>
                <td>4</td>
                <td>format version (1)</td>
              </tr>
              <tr>
                <td>5</td>
                <td>
                  kind: {farms.map((f) => `${f.spec.kind} ${f.id}`).join(', ')} (<code>envSpecs[id].kind</code>)
                </td>
              </tr>
              <tr>
                <td>6 … 7</td>
                <td>
                  payload length <var>n</var>, little-endian
                </td>
              </tr>
              <tr>
                <td>
                  8 … 8 + <var>n</var> − 1
                </td>
                <td>the payload: the env's fields, little-endian, in declaration order</td>
              </tr>
              <tr>
                <td>last 4</td>
                <td>FNV-1a 32-bit hash of all the bytes before it, little-endian</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p>
          restore refuses a wrong length, a wrong magic, another version, the other env's kind, a bad checksum, or a state the rules cannot
          reach, each with its own message.
        </p>
        <Ex id="snapshot-format" />
      </Sec>
      <Sec id="sandbox">
        <p>
          The examples run in a fresh Web Worker each time, inside a sandboxed frame with an opaque origin (it cannot reach this site's
          storage or cookies), with the same module the page uses. An example that throws shows its error; one that runs longer than 3
          seconds is stopped (try it), and one that prints more than 1,000 lines is stopped too:
        </p>
        <CodeBox id="endless" title="Example: an endless loop" code={examples.endless} />
      </Sec>
    </article>
  );
}
