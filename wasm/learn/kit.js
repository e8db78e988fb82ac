// kit.js — what a learner builds on, in one place: the built-in learners import it (ppo.js,
// reinforce.js, dqn.js), and a learner of your own imports the same names from
// 'valley-farm/learn', which exports them all (docs/adding-a-learner.md).
//
//   the farms         envSpecs (sizes, actions, horizon)
//   the network       loadCore, CoreNet (forward, policy, backward, adam, sgd), Samples,
//                     layoutShapes (core.js: the learner core, which knows no loss)
//   what it sees      SeenEnvs (a shard's vector env as its network sees it: seenEnvs.js),
//                     perception (its features: perception.js)
//   a head start      ShardDemos, cloningBatches, cloningMethods, Cloning, demosBytes (cloning the
//                     planner's play, on each thread and in the coordinator: cloning.js), plannerDemosBytes
//   a memory          networkRollout, RolloutStates, RolloutRows (a network through a rollout,
//                     with a recurrent layer's states or without: sequences.js)
//   its policy        NetPolicy, networkLayout, checkNetwork, checkNetPolicy, loadNetPolicy, ACT_MODES
//   every core        startThreads, shardEnvs, shardRandom (threads.js; exchange.js sums)
//   a run             threadNet, makeShards, rolloutBuffers, gradientStep, normaliseAdvantages,
//                     chunk, minibatchSize, checkpointMethods, closeThread (on each thread);
//                     startRun, Run (in the coordinator); rolloutBytes, networkBytes (its memory)
//                     (run.js: what every learner on the core does alike)
//   its settings      whole, number, layers, checkNetworkSize, weightCount (limits.js)
//   its checkpoints   checkPpoState (an actor-critic run's state checked as data: checkpointCheck.js)
//   its reports       trainingStats, recordEpisode, progressOf (progress.js)
//   its randomness    seededRandom, drawFrom, shuffle (rng.js: the same numbers everywhere)
export { envSpecs } from '../index.js';
export { CoreNet, Samples, layoutShapes, loadCore } from './core.js';
export { SeenEnvs } from './seenEnvs.js';
export { perception } from './perception.js';
export { Cloning, ShardDemos, cloningBatches, cloningMethods, demosBytes } from './cloning.js';
export { RolloutRows, RolloutStates, networkRollout } from './sequences.js';
export {
  Run,
  checkpointMethods,
  chunk,
  closeThread,
  gradientStep,
  makeShards,
  minibatchSize,
  networkBytes,
  normaliseAdvantages,
  rolloutBuffers,
  rolloutBytes,
  startRun,
  threadNet,
} from './run.js';
export { plannerDemosBytes } from './imitate.js';
export { checkPpoState } from './checkpointCheck.js';
export { ACT_MODES, NetPolicy, checkNetPolicy, checkNetwork, loadNetPolicy, networkLayout } from './netPolicy.js';
export { shardEnvs, shardRandom, startThreads } from './threads.js';
export { checkNetworkSize, layers, number, weightCount, whole } from './limits.js';
export { progressOf, recordEpisode, trainingStats } from './progress.js';
export { drawFrom, seededRandom, shuffle } from '../rng.js';
