// App.jsx — the page: header, message, then the game (board and legend beside status,
// actions, record & replay, agents and the editor) or the docs.
import { useModel } from './useModel.js';
import { Header } from './Header.jsx';
import { MessageBar } from './MessageBar.jsx';
import { Toolbar } from './Toolbar.jsx';
import { Board } from './Board.jsx';
import { Legend } from './Legend.jsx';
import { StatusPanel } from './StatusPanel.jsx';
import { HowTo } from './HowTo.jsx';
import { ActionPad } from './ActionPad.jsx';
import { ReplayBar } from './ReplayBar.jsx';
import { RunnerPanel } from './RunnerPanel.jsx';
import { AgentEditor } from './AgentEditor.jsx';
import { LazyRoute } from './LazyRoute.jsx';
import { envMeta } from '../model/envMeta.js';
import { formatReturn } from '../model/session.js';

// The docs and the Lab (with its learners and the learner core) are chunks of their own.
const loadDocs = () => import('../docs/index.jsx').then((m) => m.default ?? m.Docs);
const loadLab = () => import('../lab/LabPage.jsx').then((m) => m.LabPage);

function Game({ app }) {
  const { session, runner } = app;
  const meta = envMeta[session.envId];
  const facing = session.farm.facing(session.observation);
  const viewName = session.view === 'eyes' ? "agent's eyes" : 'world';
  return (
    <main class="game">
      <h1 class="sr-only">Play {meta.title}</h1>
      <div class="col-board">
        <p class="blurb">
          <strong>{meta.title}</strong> <code>{session.envId}</code> — {meta.blurb}{' '}
          {!app.howToOpen && (
            <button type="button" class="link-button" onClick={() => app.openHowTo()} data-testid="how-to-open">
              How to play
            </button>
          )}
        </p>
        {app.howToOpen && <HowTo farm={session.farm} onClose={() => app.closeHowTo()} />}
        <Toolbar session={session} onReset={() => app.newEpisode()} onDaily={() => app.dailyMap()} />
        <div class="board-wrap">
          <Board
            cells={session.cells}
            pos={session.pos}
            facing={facing}
            view={session.view}
            title={`${meta.title} map, ${session.spec.width} by ${session.spec.height}, ${viewName} view`}
            onCell={(x, y) => app.clickCell(x, y)}
            floats={session.lastEvents
              .filter((e) => e.reward > 0)
              .map((e, i) => ({ x: e.x, y: e.y, text: `+${formatReturn(e.reward)}`, key: `${session.actions.length}-${i}` }))}
          />
        </div>
        <Legend envId={session.envId} />
      </div>
      <div class="col-side">
        <StatusPanel
          session={session}
          onReset={() => app.newEpisode()}
          ending={{
            par: app.par,
            best: app.personalBest,
            newBest: app.newBest,
            onWatch: () => app.watchBest(),
            onTryAgain: () => app.tryAgain(),
            onShare: () => app.shareEpisode(),
          }}
        />
        <ActionPad session={session} onAct={(a) => app.playByHand(a)} />
        <ReplayBar app={app} />
        <RunnerPanel runner={runner} means={app.means[session.envId]} customReady={!!runner.customAgent} />
        <AgentEditor app={app} />
      </div>
    </main>
  );
}

export function App({ app }) {
  useModel(app, app.session, app.runner);
  const { session } = app;
  return (
    <>
      <Header
        envId={session.envId}
        page={app.route.page}
        onEnv={(id) => {
          location.hash = '#/';
          app.switchEnv(id);
        }}
      />
      <MessageBar message={session.message} onDismiss={() => session.dismiss()} />
      {app.fatal ? (
        <p class="panel fatal" role="alert">
          {app.fatal}
        </p>
      ) : !app.ready ? (
        <p class="boot">Loading the farm…</p>
      ) : app.route.page === 'docs' ? (
        <LazyRoute key="docs" load={loadDocs} title="docs" path={app.route.path} app={app} />
      ) : app.route.page === 'lab' ? (
        <LazyRoute key="lab" load={loadLab} title="Lab" app={app} query={app.route.query} />
      ) : (
        <Game app={app} />
      )}
      <footer class="foot">
        <p>
          Open source: a C engine in WebAssembly with a Gymnasium-style JS API. In the console, try{' '}
          <code>valleyFarm.run(&#123; episodes: 5 &#125;)</code>.
        </p>
      </footer>
    </>
  );
}
