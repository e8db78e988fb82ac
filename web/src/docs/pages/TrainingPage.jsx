// TrainingPage.jsx — how to train an agent: in the Lab (this site), and in Node with the
// package's learners and command line; then how to score it with the protocol.
import { Section, Toc } from '../components/Section.jsx';

export const TRAINING_SECTIONS = [
  ['lab', 'In the Lab'],
  ['node', 'In Node'],
  ['code', 'In your own code'],
  ['score', 'Scoring it'],
];

export function TrainingPage() {
  return (
    <article class="docs-page" data-page="training">
      <h1>Train an agent</h1>
      <Toc page="training" sections={TRAINING_SECTIONS} />
      <Section page="training" id="lab" title="In the Lab">
        <ol>
          <li>
            Open <a href="#/lab">the Lab</a>, pick a farm and a learner (<code>tabular-q</code> trains in seconds; <code>ppo</code> is a
            neural policy and slower). <strong>Learner settings</strong> lists the learner's settings with their defaults and meanings; what
            you change there goes into the share link.
          </li>
          <li>
            Press <strong>Start</strong>. Training runs in a Web Worker; the curve shows the mean return of the last 100 training episodes
            against env steps, beside the random, heuristic and best-known returns of the test split.
          </li>
          <li>
            <strong>Pause</strong>, then <strong>Evaluate on the test split</strong>: 1,000 held-out farms, with the mean, its 95 % interval
            and the normalised score (0 random, 1 best known).
          </li>
          <li>
            <strong>Download</strong> keeps the policy as JSON; <strong>Play it on the game page</strong> makes it the agent of the game,
            where you can watch it on any seed and at any speed.
          </li>
        </ol>
      </Section>
      <Section page="training" id="node" title="In Node">
        <pre class="docs-pre" tabIndex={0}>
          <code>{`npm install valley-farm
npx valley-farm train --env BackwardsValleyFarm-v0 --algo tabular-q --steps 5e6 --out policy.json --log curve.csv
npx valley-farm eval policy.json --env BackwardsValleyFarm-v0 --split test`}</code>
        </pre>
        <p>
          <code>train</code> prints its progress and evaluates on the validation split as it goes; <code>--log</code> writes the curve as
          CSV. The reference runs, with their commands, curves and test scores, are in <code>docs/runs/</code> and on the{' '}
          <a href="#/docs/benchmark/learners">Benchmark</a> page.
        </p>
        <p>
          <code>train</code> checks the files it will write before it trains: one that exists is replaced only with <code>--force</code>,
          two names for one file (a symbolic or hard link, a linked folder) are refused, a symbolic link, a folder or a device is not
          written through, and a folder that takes no file (missing, read-only, a full disk) stops the run at once rather than at its end.
          Each file is written whole, through a temporary file beside it. <code>eval</code> counts the illegal actions an agent played (the
          env plays each as a wait); a mistyped option or agent gets the nearest names.
        </p>
      </Section>
      <Section page="training" id="code" title="In your own code">
        <pre class="docs-pre" tabIndex={0}>
          <code>{`import { createLearner, loadPolicy } from 'valley-farm/learn';
const learner = await createLearner({ env: 'ValleyFarm-v0', algo: 'tabular-q', seed: 1 });
const progress = await learner.trainFor(1_000_000);    // { steps, episodes, meanReturn, stepsPerSec, losses }
const json = learner.policy().toJSON();               // save it; loadPolicy(json) gives it back`}</code>
        </pre>
        <p>
          Learners train on the vector env with its legal masks (<code>makeVec</code>), from training seeds only. Your own learner can do
          the same: <code>makeVec(id, n)</code> hands back masks and the finished episodes' returns in every step.
        </p>
        <p>
          Each learner's settings, with their defaults and meanings, are in <code>algorithms[algo].defaults</code> and <code>.docs</code>;
          pass any of them to <code>createLearner</code>, or to <code>npx valley-farm train</code> as an option in kebab case, such as{' '}
          <code>--history 4</code> or <code>--num-envs 128</code>. The farms are partially observed (the agent sees only the tiles around
          it): <code>{"createLearner({ env, algo: 'ppo', history: 4 })"}</code> gives the policy its last four observations of the episode
          instead of one.
        </p>
        <p>
          A layout is new every episode, and a view shows only the square around the agent: a policy that sees only its view forgets where
          the villagers or the fields were as soon as they leave it. With <code>memory: 1</code> (<code>--memory 1</code>) it also sees what
          it remembers of the farm this episode, as the hand-written heuristics do: for each kind of tile (and each status of a tile that
          has one), the nearest cell of that kind it has seen, its offset, its distance and how long ago it was in view; and around it, how
          much of each square of the farm it has seen. A farm without coordinates in its observation is followed by dead reckoning: a move
          walks exactly when the tile it walks into is walkable, which the view shows. A run of a known length (the Lab's steps,{' '}
          <code>--steps</code>, <code>createLearner</code>'s <code>steps</code>) lowers its step size in a straight line to 0 by its end (
          <code>anneal</code>, which defaults to the run's steps, as CleanRL's PPO does), so that the last updates settle the policy instead
          of shaking it; <code>--anneal 0</code> keeps it constant, and without a length it stays constant too.
        </p>
        <p>
          Learning from its own play alone is slow on these farms. By default PPO first plays <code>imitate</code> training farms (its
          default is in <code>algorithms.ppo.defaults</code>; <code>--imitate 0</code> starts from scratch) with the engine's planner (a
          narrow beam: <code>plannerWidth</code>) and learns to take the planner's action from what it saw, and to predict the planner's
          return; then it learns from its own play. The planner sees the whole farm and the policy only its view, so give it a history too:
          from one view at a time it learns much less from the planner.
        </p>
        <p>
          A PPO policy acts as it trained: it draws each action from its distribution, with a generator seeded by the episode's seed, so the
          same farm is played the same way every time. Saved with <code>"act": "greedy"</code> it takes the most probable action instead,
          which plays worse here: a fixed choice for each view can walk one loop for the rest of the episode.
        </p>
        <p>
          The neural learners (<code>ppo</code>, <code>reinforce</code>, <code>dqn</code>) run their networks on the learner core: C beside
          the engine (<code>core/learn/net.c</code>), compiled to its own WebAssembly module with SIMD (<code>learner.wasm</code>, which the
          game page never loads). It knows no algorithm: it runs a network forward, takes back the gradient of the learner's loss with
          respect to the network's outputs, which each learner computes in its own file, and steps (Adam, or plain gradient descent). Its
          first layer is sparse: an observation's features are mostly one-hot zeros, so it adds up the weights of the few that are not. Its
          backward pass is checked against finite differences, and PPO's gradients against those of the core that computed PPO's loss in C.
        </p>
        <p>
          Every core trains, and the bits do not follow the machine: a run's envs are cut into <code>shards</code> (8 by default), each with
          its own envs, generator and share of every minibatch, and <code>--threads</code> (<code>threads</code> in{' '}
          <code>createLearner</code>; by default one per core, at most 8) runs them a few to a thread (worker threads in Node, Web Workers
          in the Lab). The shards' gradients are added in an order fixed by the shards alone, so a seeded run trains to the same weights on
          1, 2 or 8 threads, and a run saved on one number of threads resumes on another.
        </p>
        <p>
          A network of your own: a learner is one file (<code>wasm/learn/reinforce.js</code> is the one to copy) that builds on what{' '}
          <code>valley-farm/learn</code> exports (the core's <code>CoreNet</code> and <code>Samples</code>, <code>SeenEnvs</code>,{' '}
          <code>startThreads</code>, <code>NetPolicy</code>), and <code>npx valley-farm train --algo ./my-learner.js</code> trains it. A
          network the core does not offer (another library's, a GPU's) fits the same way: the learner's file owns its numbers, and only its
          policy file, <code>act(observation, info)</code> and <code>toJSON()</code>, meets the rest of the package.
        </p>
        <p>
          A long run can be saved as it goes: <code>--checkpoint-every 1e6</code> writes the run beside its policy (
          <code>policy.json.ckpt</code>) every million steps (or <code>10m</code>: every ten minutes), with every env where it is (its
          episode's seed and actions so far), and keeps it when the run ends. <code>npx valley-farm train --resume policy.json.ckpt</code>{' '}
          continues a run that was stopped to exactly the policy the unbroken run gives, and with a larger <code>--steps</code> extends a
          finished one (PPO's step size keeps the anneal the run was started with). It takes the run's settings from the checkpoint, and
          only <code>--steps</code>, <code>--out</code>, <code>--log</code>, <code>--progress-every</code>, <code>--threads</code> (any
          number: the same bits) and <code>--force</code> beside it. A checkpoint is data: every field is checked before anything is opened,
          and the files a resumed run writes are the ones the command line names, or by default beside the checkpoint:{' '}
          <code>policy.json</code> and, if the run kept a curve, <code>policy.csv</code> (or <code>.jsonl</code>), the whole curve, which
          the checkpoint holds; the paths it was started with are a record only. If the policy cannot be written at the end, the run stays
          in its checkpoint, and <code>--resume policy.json.ckpt --out other.json</code> writes it (a run without a checkpoint leaves its
          policy in the temporary folder, and says where). In code: <code>learner.checkpoint()</code> and{' '}
          <code>learner.restore(checkpoint)</code>, which checks it first.
        </p>
        <p>
          <code>npm run bench:learn</code> measures PPO's training speed against another build (alternating, in one run), its scaling with
          threads, REINFORCE's and DQN's rates, and the Lab's Workers in Chromium against Node; and, from the reference runs, when each
          farm's validation passed the heuristic and whether the test seeds confirm it (the run against the heuristic on the same seeds,
          paired).
        </p>
      </Section>
      <Section page="training" id="score" title="Scoring it">
        <p>
          Any agent with <code>act(observation, info)</code> is scored by <code>evaluate(agent, {"{ env, split: 'test' }"})</code> from{' '}
          <code>valley-farm/evaluate</code>, or <code>npx valley-farm eval</code>. See <a href="#/docs/benchmark">the benchmark</a> for the
          protocol.
        </p>
      </Section>
    </article>
  );
}
