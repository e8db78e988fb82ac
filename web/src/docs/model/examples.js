// examples.js — the API reference's runnable examples, by section. Each runs as is in the
// docs worker (the import line is the one a project would write; top-level await works).
// tests/web/docs_examples.test.js runs every one of them and checks it finishes cleanly.
const IMPORT = "import { make, makeVec, envIds, envSpecs } from 'valley-farm';";

export const examples = {
  make: `${IMPORT}

console.log(envIds);
const env = await make('ValleyFarm-v0');
console.log(env.id, env.actionSpace.n, env.actionSpace.names);
try {
  await make('MountainFarm-v0');
} catch (err) {
  console.log(err.message);
}`,
  reset: `${IMPORT}

const env = await make('ValleyFarm-v0');
const { observation, info } = env.reset({ seed: 7 });
console.log(info);
console.log(observation);
console.log(env.reset().info.seed, '(no seed: a random one, reported in info.seed)');`,
  step: `${IMPORT}

const env = await make('ValleyFarm-v0');
env.reset({ seed: 7 });
const north = env.actionSpace.names.indexOf('north');
let r = env.step(north);        // seed 7: north walks onto the cow
console.log(r.reward, r.terminated, r.truncated, r.info);
r = env.step(7);                // feed
console.log('fed:', r.info.actionWasLegal, 'feed left:', r.observation.inventory.feed);
r = env.step(7);                // feed again: the cow is sated, so illegal (played as wait)
console.log('fed again:', r.info.actionWasLegal, 'step', r.info.step);`,
  legal: `${IMPORT}

const env = await make('BackwardsValleyFarm-v0');
env.reset({ seed: 7 });
const mask = env.legalActions();
console.log(mask);
console.log(env.actionSpace.names.filter((_, a) => mask[a] === 1));`,
  events: `${IMPORT}

// events: true — every step's info.events says what it did and what each reward was for
const env = await make('ValleyFarm-v0', { events: true });
env.reset({ seed: 3 });
for (let t = 0; t < 50; t++) {
  const legal = env.legalActions();
  // a farm action when there is one (plant … sell), else the first move that works
  const a = [4, 5, 6, 7, 8, 9, 10, 0, 2, 1, 3].find((x) => legal[x]);
  const { reward, info } = env.step(a);
  for (const e of info.events) console.log(\`step \${info.step}: \${e.code} — \${e.text}\`);
  if (reward > 0) console.log('  the events add up to the reward:', info.events.reduce((s, e) => s + e.reward, 0) === reward);
}
console.log(env.illegalReasons().filter(Boolean).map((r) => r.code));`,
  state: `${IMPORT}

const env = await make('ValleyFarm-v0');
env.reset({ seed: 7 });
const s = env.state();
console.log(Object.keys(s));
console.log(s.agent, s.inventory);
console.log(s.animals);
console.log(s.villagers);`,
  render: `${IMPORT}

const env = await make('BackwardsValleyFarm-v0');
env.reset({ seed: 7 });
console.log(env.render());`,
  snapshot: `${IMPORT}

const env = await make('ValleyFarm-v0');
env.reset({ seed: 7 });
env.step(0);
const bytes = env.snapshot();
const a = [7, 11, 11, 11, 11, 11].map((act) => env.step(act).reward);
env.restore(bytes);             // back to the saved state
const b = [7, 11, 11, 11, 11, 11].map((act) => env.step(act).reward);
console.log(bytes.length, 'bytes; the same future twice:', JSON.stringify(a) === JSON.stringify(b));
const other = await make('ValleyFarm-v0');
other.restore(bytes);           // works on a fresh env too
console.log(other.state().step);`,
  close: `${IMPORT}

const env = await make('ValleyFarm-v0');
env.reset({ seed: 1 });
env.close();
try {
  env.step(0);
} catch (err) {
  console.log(err.message);
}`,
  makevec: `${IMPORT}

const vec = await makeVec('ValleyFarm-v0', 4);
console.log(vec.numEnvs, vec.obsSize);
let { observations, masks } = vec.reset({ seed: 100 });   // env i gets seed 100 + i
console.log('legal in env 0:', vec.singleActionSpace.names.filter((_, a) => masks[a] === 1));
const stepsLeft = envSpecs['ValleyFarm-v0'].layout.find((f) => f.name === 'stepsLeft').offset;
for (let t = 0; t < 50; t++) {
  const r = vec.step([11, 11, 11, 11]);   // everyone waits
  if (r.terminated[0]) {
    console.log('episode of seed', r.episodeSeeds[0], 'ended after', r.episodeLengths[0], 'steps, return', r.episodeReturns[0]);
    console.log('stepsLeft: last observation', r.finalObservations[stepsLeft], 'next episode', r.observations[stepsLeft]);
  }
}
console.log('env 0 now plays seed', vec.episodeSeed(0));   // 100 + 0 + 4
vec.close();`,
  observation: `${IMPORT}

for (const id of envIds) {
  const env = await make(id);
  console.log(id, Object.keys(env.observationSpace));
  console.log(envSpecs[id].layout.map((f) => \`\${f.name}@\${f.offset}\`).join(' '));
}`,
  errors: `${IMPORT}

const env = await make('ValleyFarm-v0');
const tryIt = (label, fn) => {
  try { fn(); console.log(label, 'ok'); } catch (err) { console.log(label, '->', err.name + ':', err.message); }
};
tryIt('step before reset', () => env.step(0));
env.reset({ seed: 1 });
tryIt('action 12', () => env.step(12));
tryIt('action "north"', () => env.step('north'));
tryIt('seed -1', () => env.reset({ seed: -1 }));
tryIt('restore junk', () => env.restore(new Uint8Array(10)));
console.log('still at step', env.state().step, '(a throw changes nothing)');`,
  'snapshot-format': `${IMPORT}

const env = await make('BackwardsValleyFarm-v0');
env.reset({ seed: 7 });
const b = env.snapshot();
const ascii = String.fromCharCode(...b.slice(0, 4));
const payload = b[6] | (b[7] << 8);
const hash = (b[b.length - 4] | (b[b.length - 3] << 8) | (b[b.length - 2] << 16) | (b[b.length - 1] << 24)) >>> 0;
console.log({ magic: ascii, version: b[4], kind: b[5], payload, total: b.length, fnv1a: hash.toString(16) });
b[20] ^= 1;                     // change one byte: the checksum no longer matches
try { env.restore(b); } catch (err) { console.log(err.message); }`,
  endless: `${IMPORT}

// An example that never ends is stopped after a few seconds; the page stays responsive.
const env = await make('ValleyFarm-v0');
env.reset({ seed: 1 });
for (;;) {}`,
};
