// kit.js — what a learner builds on, in one place: the built-in learners import it (ppo.js,
// reinforce.js, dqn.js), and a learner of your own imports the same names from
// 'valley-farm/learn', which exports them all (docs/adding-a-learner.md).
//
//   the farms         envSpecs (sizes, actions, horizon)
//   the network       loadCore, CoreNet (forward, policy, backward, adam, sgd), Samples,
//                     layoutShapes (core.js: the learner core, which knows no loss)
//   what it sees      SeenEnvs (a shard's vector env as its network sees it: seenEnvs.js),
//                     perception (its features: perception.js)
//   a head start      ShardDemos, cloningBatches (cloning the planner's play: cloning.js), plannerDemosBytes
//   a memory          RolloutStates (a recurrent network's states through a rollout: sequences.js)
//   its policy        NetPolicy, networkLayout, checkNetPolicy, loadNetPolicy, ACT_MODES
//   every core        startThreads, shardEnvs, shardRandom (threads.js; exchange.js sums)
//   its settings      whole, number, layers, checkNetworkSize, weightCount (limits.js)
//   its checkpoints   checkPpoState (an actor-critic run's state checked as data: checkpointCheck.js)
//   its reports       trainingStats, recordEpisode, progressOf (progress.js)
//   its randomness    seededRandom, drawFrom, shuffle (rng.js: the same numbers everywhere)
export { envSpecs } from '../index.js';
export { CoreNet, Samples, layoutShapes, loadCore } from './core.js';
export { SeenEnvs } from './seenEnvs.js';
export { perception } from './perception.js';
export { ShardDemos, cloningBatches } from './cloning.js';
export { RolloutStates } from './sequences.js';
export { plannerDemosBytes } from './imitate.js';
export { checkPpoState } from './checkpointCheck.js';
export { ACT_MODES, NetPolicy, checkNetPolicy, loadNetPolicy, networkLayout } from './netPolicy.js';
export { shardEnvs, shardRandom, startThreads } from './threads.js';
export { checkNetworkSize, layers, number, weightCount, whole } from './limits.js';
export { progressOf, recordEpisode, trainingStats } from './progress.js';
export { drawFrom, seededRandom, shuffle } from '../rng.js';
