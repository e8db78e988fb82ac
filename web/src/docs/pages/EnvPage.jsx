// EnvPage.jsx — one farm's rules: story, legend, actions, step order, rewards, observation,
// layout, termination, each rule with its live widget. Tables come from envSpecs.
import { envSpecs } from 'valley-farm';
import { rules, VALLEY, BACKWARDS } from '../model/rules.js';
import { ActionTable, TileTable, ObservationTable, LayoutTable } from '../components/SpecTables.jsx';
import { RuleWidget } from '../components/RuleWidget.jsx';
import { Section, Toc, DocLink } from '../components/Section.jsx';

export const ENV_SECTIONS = {
  [VALLEY]: [
    ['story', 'Story'],
    ['map', 'Map legend'],
    ['actions', 'Actions'],
    ['animals', 'Step order and animals'],
    ['villagers', 'Villagers and market'],
    ['why-illegal', 'Why an action is illegal'],
    ['rewards', 'Rewards'],
    ['observation', 'Observation'],
    ['layout', 'Flat layout'],
    ['termination', 'Termination'],
  ],
  [BACKWARDS]: [
    ['story', 'Story'],
    ['map', 'Map legend'],
    ['actions', 'Actions'],
    ['step', 'Step order'],
    ['animals', 'Harvest and animals'],
    ['villagers', 'Villagers'],
    ['why-illegal', 'Why an action is illegal'],
    ['rewards', 'Rewards'],
    ['observation', 'Observation'],
    ['layout', 'Flat layout'],
    ['termination', 'Termination'],
  ],
};

function Rewards({ envId }) {
  const r = rules[envId];
  return (
    <>
      <div class="docs-table-wrap">
        <table class="docs-table" data-table="rewards">
          <thead>
            <tr>
              <th scope="col">source</th>
              <th scope="col">reward</th>
            </tr>
          </thead>
          <tbody>
            {r.rewards.map(([what, how]) => (
              <tr>
                <th scope="row">{what}</th>
                <td>{how}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>{r.rewardNote}</p>
    </>
  );
}

function ValleyExtras({ page }) {
  return (
    {
      actions: <RuleWidget id="valley-crop" />,
      animals: (
        <>
          <p>
            Feeding at step <var>t</var> makes the animal sated for the ticks of steps <var>t</var>+1 … <var>t</var>+10 (the feeding step
            itself does not tick it). So an animal fed once and never collected yields 2 products, after ticks 5 and 10. Collecting resets
            the counter: collecting right after tick 5 takes one product, and the next comes 5 ticks later. Pending products never expire
            and can be collected while the animal is hungry.
          </p>
          <RuleWidget id="valley-feed" />
        </>
      ),
      villagers: (
        <>
          <p>
            Relationships are continuous (multiples of 2.5), clamped to 0 … 100. Mood: 0 wary (r &lt; 25), 1 neutral (25 ≤ r &lt; 50), 2
            friendly (r ≥ 50). Villagers are numbered 0, 1, 2 in the order the generator placed them; <code>relationships[i]</code> and the
            full state use that order.
          </p>
          <RuleWidget id="valley-gift" />
          <p>
            Selling: <code>coins = floor((5 × crops + 8 × products) × m)</code>, where <var>m</var> is the mean over the three villagers of
            (1 + r/100), computed exactly: with R = r0 + r1 + r2, <code>coins = floor((5 × crops + 8 × products) × (300 + R) / 300)</code>.
            Reward +0.1 × coins.
          </p>
          <RuleWidget id="valley-sell" />
        </>
      ),
      observation: <RuleWidget id="valley-observation" />,
      termination: <RuleWidget id="valley-start" />,
    }[page] ?? null
  );
}

function BackwardsExtras({ page }) {
  return (
    {
      actions: <RuleWidget id="backwards-crop" />,
      animals: (
        <>
          <RuleWidget id="backwards-harvest" />
          <p>
            An animal pays its bonus only if you witness it becoming Thriving (its pen inside your 5 × 5 view after your move), and only
            once. One that starts Thriving must be cared for (→ Weak) and regrow under your eyes.
          </p>
          <RuleWidget id="backwards-animal" />
        </>
      ),
      villagers: (
        <>
          <p>
            Moods are 0 Hostile, 1 Neutral, 2 Friendly and never drift. Insult raises the mood, compliment lowers it; a villager pays its
            bonus the first time it becomes Friendly during the episode.
          </p>
          <RuleWidget id="backwards-insult" />
        </>
      ),
      observation: <RuleWidget id="backwards-observation" />,
      termination: <RuleWidget id="backwards-start" />,
    }[page] ?? null
  );
}

const EXTRAS = { [VALLEY]: ValleyExtras, [BACKWARDS]: BackwardsExtras };

/** A section of an env page, followed by its widgets. (Top level, so widgets keep their state across renders.) */
function S({ envId, k, children }) {
  const Extras = EXTRAS[envId];
  const title = ENV_SECTIONS[envId].find(([key]) => key === k)[1];
  return (
    <Section page={rules[envId].slug} id={k} title={title}>
      {children}
      <Extras page={k} />
    </Section>
  );
}

export function EnvPage({ envId }) {
  const r = rules[envId];
  const spec = envSpecs[envId];
  const slug = r.slug;
  const sections = ENV_SECTIONS[envId];
  return (
    <article class="docs-page" data-page={slug}>
      <h1>
        {r.title} <code>{envId}</code>
      </h1>
      <p class="docs-lead">
        {spec.width} × {spec.height} grid, {spec.actions.length} actions, {spec.horizon} steps, a {spec.obsSize}-integer flat observation.{' '}
        <DocLink to="/tutorial">Write an agent for it</DocLink> or <a href="#/">play it in the game</a>.
      </p>
      <Toc page={slug} sections={sections} />
      <S envId={envId} k="story">
        {r.story.map((p) => (
          <p>{p}</p>
        ))}
      </S>
      <S envId={envId} k="map">
        <p>
          x grows east (0 … {spec.width - 1}), y grows south (0 … {spec.height - 1}); north is y − 1. The layout is drawn at reset from the
          episode's seed and never changes during the episode. {r.start}
        </p>
        <TileTable envId={envId} />
      </S>
      <S envId={envId} k="actions">
        <ActionTable envId={envId} />
        {r.actionNotes.map((n) => (
          <p>{n}</p>
        ))}
      </S>
      {envId === VALLEY ? (
        <S envId={envId} k="animals">
          <ol>
            {r.stepOrder.map((s) => (
              <li>{s}</li>
            ))}
          </ol>
        </S>
      ) : (
        <>
          <S envId={envId} k="step">
            <ol>
              {r.stepOrder.map((s) => (
                <li>{s}</li>
              ))}
            </ol>
          </S>
          <S envId={envId} k="animals">
            <p>Crops grow by themselves, one stage per step, unless cared for. Stand on a Harvest-Ready field to harvest it.</p>
          </S>
        </>
      )}
      <S envId={envId} k="villagers" />
      <S envId={envId} k="why-illegal">
        <p>
          An illegal action acts as a wait and spends the step. The engine names the rule that blocks it: <code>info.illegalReason</code>{' '}
          after the step and <code>env.illegalReasons()</code> for every action now give <code>{'{ code, text }'}</code>. Where two rules
          block an action, the first listed here is named.
        </p>
        <div class="docs-table-wrap">
          <table class="docs-table" data-table="why-illegal">
            <thead>
              <tr>
                <th scope="col">action</th>
                <th scope="col">code</th>
                <th scope="col">the rule that blocks it</th>
              </tr>
            </thead>
            <tbody>
              {r.whyIllegal.map(([actions, code, text]) => (
                <tr>
                  <td>{actions}</td>
                  <th scope="row">
                    <code>{code}</code>
                  </th>
                  <td>{text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </S>
      <S envId={envId} k="rewards">
        <Rewards envId={envId} />
      </S>
      <S envId={envId} k="observation">
        <ObservationTable envId={envId} />
        <p>
          <strong>Hidden:</strong> {r.hidden} (All of it is in <code>env.state()</code>, for debugging and for the widgets here.)
        </p>
      </S>
      <S envId={envId} k="layout">
        <p>
          Vector environments (<DocLink to="/api/makevec">makeVec</DocLink>) return observations as one <code>Int32Array</code>,{' '}
          {spec.obsSize} integers per env, env <var>i</var> at offset <var>i</var> × {spec.obsSize}:
        </p>
        <LayoutTable envId={envId} />
      </S>
      <S envId={envId} k="termination">
        <p>{r.termination}</p>
      </S>
    </article>
  );
}
