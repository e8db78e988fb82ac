// handle.js — window.valleyFarm: the page for the browser console and for automation
// (documented in web/README.md). Every method acts on the game shown on the page, so what a
// script does is what a visitor sees.
import { envIds, envSpecs } from './envMeta.js';
import { parseSeed } from '../replay.js';
import { loadPolicyData, policyAgent } from './policyAgent.js';

export function createHandle(app) {
  const { session, runner } = app;
  const snapshotOf = () => ({
    env: session.envId,
    seed: session.seed,
    step: session.actions.length,
    observation: session.observation,
    return: session.ret,
    done: session.done,
  });

  return {
    envIds: [...envIds],
    envSpecs,

    /** Switches the page to a farm and starts an episode; resolves with { observation, info }. */
    async make(id, options = {}) {
      if (!envIds.includes(id)) throw new Error(`Unknown farm ${short(id)}; allowed: ${envIds.join(', ')}`);
      if (options === null || typeof options !== 'object' || Array.isArray(options)) {
        throw new TypeError(`make(id, options): options must be an object such as { seed: 42 }, got ${short(options)}`);
      }
      const seed = options.seed === undefined ? undefined : parseSeed(options.seed, 'seed');
      runner.pause();
      await session.open(id, { seed });
      app.measure(id);
      app.inform();
      return { observation: session.observation, info: session.info };
    },
    /** New episode (seed: number, BigInt or decimal string; none = random). */
    reset(seed) {
      const parsed = seed === undefined ? undefined : parseSeed(seed, 'seed'); // the replays' rule: decimal strings only
      runner.pause();
      const r = session.reset(parsed);
      if (!r) throw new Error(session.message?.text ?? 'reset failed');
      return r;
    },
    /** One action (id or name): { observation, reward, terminated, truncated, info }, or null after the end. */
    step(action) {
      return app.playByHand(action);
    },
    state: () => session.env.state(),
    observation: () => session.observation,
    legalActions: () => [...session.legal],
    actionNames: () => [...session.spec.actions],
    /** { env, seed, step, observation, return, done } of the episode shown. */
    status: snapshotOf,
    render: () => session.env.render(),

    /**
     * The agent the runner uses: 'heuristic', 'random', an object { act(obs, info), reset?() }
     * or a function act(obs, info) (both run on the page), { code: '...' } (run in a
     * sandboxed Web Worker like the editor's code), or { policy } (a saved policy's JSON).
     * Resolves when the agent is ready.
     */
    async setAgent(agent) {
      if (typeof agent === 'string') return runner.setAgent(agent);
      if (typeof agent === 'function') return runner.setCustomAgent({ act: agent }, 'console');
      if (agent && typeof agent.code === 'string') {
        app.setCode(agent.code);
        const ok = await app.runCode(agent.code);
        runner.pause();
        if (!ok) throw new Error(app.codeStatus.text);
        return undefined;
      }
      if (agent && typeof agent.act === 'function') return runner.setCustomAgent(agent, 'console');
      if (agent && agent.policy && typeof agent.policy === 'object') {
        // a trained policy (the Lab's Download, npx valley-farm train): data, checked and run
        // by the package's own code, so it needs no sandbox
        const policy = await loadPolicyData(agent.policy);
        try {
          if (policy.env !== session.envId) await app.switchEnv(policy.env);
        } catch (err) {
          policy.dispose?.();
          throw err;
        }
        return runner.setCustomAgent(policyAgent(policy), `${policy.algo} policy`);
      }
      throw new TypeError(
        "setAgent takes 'heuristic', 'random', a function act(obs, info), an object { act, reset }, { code: '...' } or { policy } (a saved policy, or an ONNX model's bytes)",
      );
    },
    /** Plays whole episodes with the agent; resolves with their returns, rejects with the agent's error. */
    run(options = {}) {
      if (options === null || typeof options !== 'object' || Array.isArray(options)) {
        throw new TypeError(`run(options): options must be an object such as { episodes: 5, speed: Infinity }, got ${short(options)}`);
      }
      const { episodes = 1, speed = Infinity } = options;
      return runner.run({ episodes, speed });
    },
    play: () => runner.play(),
    pause: () => runner.pause(),
    setSpeed: (stepsPerSecond) => runner.setSpeed(stepsPerSecond),
    /** { stepsPerSecond, episodesPerSecond, episodes, returns, error } of the runner. */
    runnerStats: () => ({
      playing: runner.playing,
      stepsPerSecond: runner.stepsPerSecond,
      episodesPerSecond: runner.episodesPerSecond,
      episodes: runner.totalEpisodes,
      returns: runner.returns.map((r) => r.ret),
      error: runner.error,
    }),
    /** The built-in agents' mean returns: { [envId]: { heuristic, random } } (as measured so far). */
    means: () => JSON.parse(JSON.stringify(app.means)),

    /** The episode shown as a replay record { env, seed, actions, ret }. */
    replay: () => session.record(),
    /** Opens a replay: a record, its JSON text, or a share link; resolves true/false (message on the page). */
    loadReplay: (source) => app.loadReplay(source),
    replayStep: (delta = 1) => session.replayStep(delta),
    shareLink: () => app.shareLink(),
    setView: (view) => session.setView(view),
    /** Calls fn() after every change of the game; returns an unsubscribe function. */
    subscribe: (fn) => session.subscribe(() => fn(snapshotOf())),
    app,
  };
}

// A value as an error message shows it: never more than a line.
function short(value) {
  let text;
  try {
    text =
      typeof value === 'string'
        ? JSON.stringify(value.slice(0, 60))
        : typeof value === 'bigint'
          ? `${value}n`
          : String(JSON.stringify(value) ?? value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
