// Type-checked by `tsc -p tests/types` in npm test: the declarations in wasm/index.d.ts
// must accept the API as the README and the docs' API page use it, and reject misuse (the @ts-expect-error
// lines fail the check if the declarations ever stop rejecting them).
import {
  envIds,
  envSpecs,
  flatten,
  make,
  makeVec,
  unflatten,
  type BackwardsState,
  type EnvState,
  type IllegalReasonCode,
  type ValleyObservation,
  type ValleyInventory,
  type BackwardsRules,
  type StepEventCode,
  engineSpec,
} from 'valley-farm';

const id: 'ValleyFarm-v0' = envIds[0];
const valley = await make(id);
const { observation, info } = valley.reset({ seed: 42 });
const seeds: number = observation.inventory.seeds;
const seed: number | bigint = info.seed;
const step = valley.step(4);
const legal: boolean = step.info.actionWasLegal;
const truncated: false = step.truncated;
const firstVillager: number = valley.state().villagers[0].relationship;
const mask: Uint8Array = valley.legalActions();
const why: string | undefined = step.info.illegalReason?.text;
const codes: (IllegalReasonCode | undefined)[] = valley.illegalReasons().map((r) => r?.code);
const bytes: Uint8Array = valley.snapshot();
valley.restore(bytes);
const text: string = valley.render();
const best = valley.plan({ width: 100, prove: true });
const optimal: boolean = best.proven && best.bestReturn === best.upperBound;
valley.plan({ prove: 500_000 });
// @ts-expect-error prove is a flag or a number of states, not a string
valley.plan({ prove: 'yes' });
valley.reset();
valley.reset({ seed: 2n ** 63n });
valley.close();

const backwards = await make('BackwardsValleyFarm-v0');
const facing: number = backwards.reset().observation.facing;
const meters: BackwardsState['meters'] = backwards.state().meters;

const vec = await makeVec('BackwardsValleyFarm-v0', 64);
const obs: Int32Array = vec.reset(7).observations;
const result = vec.step(new Int32Array(64));
const rewards: Float64Array = result.rewards;
vec.step([0, 1, 2]);
const size: number = vec.obsSize + envSpecs['ValleyFarm-v0'].layout[0].offset;
const masks: Uint8Array | null = result.masks;
const finalSeed: bigint = result.episodeSeeds[0];
const drawn = vec.reset({ seed: 3 }).seed;
vec.resetEnvs([0, 5], [1, 2n]);
const levelVec = await makeVec('ValleyFarm-v0', 4, { masks: false, levels: [1, 2, 3] });
const nextStepVec = await makeVec('ValleyFarm-v0', 4, { autoreset: 'next-step' });
const autoresetMode: 'same-step' | 'next-step' = nextStepVec.metadata.autoresetMode;
// @ts-expect-error: Gymnasium's Python spelling is not this package's
await makeVec('ValleyFarm-v0', 4, { autoreset: 'next_step' });
const again: ValleyObservation = unflatten('ValleyFarm-v0', flatten('ValleyFarm-v0', observation));
const hash: bigint = (await make('ValleyFarm-v0', { render_mode: 'ansi' })).stateHash();
const saved: EnvState = valley.saveState();
const inside: boolean = valley.observationSpace.contains(observation);
// @ts-expect-error: numEnvs is read-only
vec.numEnvs = 6;
// @ts-expect-error: no such render mode
await make('ValleyFarm-v0', { render_mode: 'rgb_array' });

// @ts-expect-error: not an env id
await make('CartPole-v1');
// @ts-expect-error: a valley observation has no farmValue
const nope: number = (observation as ValleyObservation).farmValue;
// @ts-expect-error: seeds are numbers or BigInts
valley.reset({ seed: '42' });

// the generated per-farm types (wasm/farm_types.d.ts)
const inventory: ValleyInventory = observation.inventory;
const cropValues: BackwardsRules['crops'] = (envSpecs['BackwardsValleyFarm-v0'].rules as BackwardsRules).crops;
const event: StepEventCode = 'gift';
const runs: number = engineSpec.protocol.randomRuns;
// @ts-expect-error: the valley's inventory has no farm value
const farmValue: number = inventory.farmValue;
// @ts-expect-error: not an event code
const notAnEvent: StepEventCode = 'rained';

export {
  inventory,
  cropValues,
  event,
  runs,
  farmValue,
  notAnEvent,
  masks,
  finalSeed,
  drawn,
  levelVec,
  again,
  hash,
  saved,
  inside,
  seeds,
  seed,
  legal,
  truncated,
  firstVillager,
  mask,
  text,
  optimal,
  facing,
  meters,
  obs,
  rewards,
  size,
  nope,
};

// Gymnasium's conventions
import { loadPolicy } from 'valley-farm/learn';
import { flatObservationSpace, type MultiDiscrete } from 'valley-farm';
const policy = await loadPolicy({});
const fromSeed: number = policy.act(observation, { ...info, legal: valley.legalActions() }); // info.seed is number | bigint
const flatLow: readonly number[] = flatObservationSpace('ValleyFarm-v0').low;
// @ts-expect-error: a flat observation space has per-element low/high, not min/max
const flatMin: number = flatObservationSpace('ValleyFarm-v0').min;
const seededWith: number[] = valley.actionSpace.seed(3);
const masked: number = valley.actionSpace.sample({ mask: valley.legalActions() });
valley.reset({ seed: 1, options: {} });
const noTimeLimit: null = valley.spec.maxEpisodeSteps;
const modes: readonly string[] = valley.metadata.renderModes;
const batched: MultiDiscrete = vec.actionSpace;
const batchActions: Int32Array = vec.actionSpace.sample({ mask: result.masks ?? undefined });
const rowSize: number = vec.singleObservationSpace.shape[0];
const ended: Uint8Array = result.infos._episode;
const endedReturns: Float64Array = result.infos.episode.r;
export { fromSeed, flatLow, flatMin, seededWith, masked, noTimeLimit, modes, batched, batchActions, rowSize, ended, endedReturns };

// ---- valley-farm/learn: a learner on any number of threads, checkpoints, the kit --------------
import { CoreNet, Samples, createLearner, loadCore } from 'valley-farm/learn';
async function learnerKit(): Promise<number> {
  const learner = await createLearner({ env: 'ValleyFarm-v0', algo: 'reinforce', seed: 1, threads: 2 });
  const p = await learner.trainFor(4096, { until: performance.now() + 250, onProgress: (q) => q.steps });
  const saved = await learner.checkpoint();
  if (saved) await learner.restore(saved);
  const core = await loadCore();
  const net = new CoreNet(core, { inputs: 10, hidden: [8], heads: [3, 1], headInit: [0.01, 0] });
  const samples = new Samples(core, 4, 2, { actions: 3 });
  const out: Float32Array = net.forward(samples, 4, 0);
  const { p: probabilities } = net.policy(samples, 4, 0);
  net.outputGrad(4).set(out);
  net.backward(samples, 4, 0);
  net.adam(1e-3);
  // @ts-expect-error: threads is a number
  await createLearner({ env: 'ValleyFarm-v0', threads: 'two' });
  return p.steps + probabilities.length + (p.threads ?? 0);
}
void learnerKit;
// Statistics over training runs (valley-farm/evaluate): a score matrix is runs × tasks, or one task's scores
import { aggregates, improvement, performanceProfile, probabilityOfImprovement } from 'valley-farm/evaluate';
const overRuns = aggregates([0.61, 0.64, 0.66], { reps: 1000, seed: 2 });
const iqmLow: number = overRuns.iqm.low;
const gap: number = overRuns.optimalityGap.estimate;
const pImprove: number = improvement([[0.6, 0.8]], [[0.5, 0.7]]).estimate + probabilityOfImprovement([0.6], [0.5]);
const profileBand: number[] = performanceProfile([0.5, 0.6], [0, 0.5, 1]).high;
// @ts-expect-error scores are numbers
aggregates(['0.6']);
// a checked tabular-q table packed to move to another thread without a copy
import { packTable } from 'valley-farm/learn';
const packed = packTable([['0,1,2', [0.5, 0, 0]]], 3);
const packedBuffers: ArrayBufferLike[] = [packed.keys.buffer, packed.ends.buffer, packed.values.buffer];
// @ts-expect-error: a row's numbers come after its key
packTable([[[0.5], 'k']], 3);
export { packedBuffers };
// a network policy as an ONNX model and back
import { ALLOWED_OPS, loadOnnxPolicy, onnxToPolicy, policyToOnnx } from 'valley-farm/onnx';
const model: Uint8Array = policyToOnnx({});
const fromModel: object = onnxToPolicy(model.buffer as ArrayBuffer);
const onnxOps: readonly string[] = ALLOWED_OPS;
void loadOnnxPolicy(model).then((p) => p.act);
// @ts-expect-error: a model is bytes, not text
onnxToPolicy('model.onnx');
export { fromModel, onnxOps };
