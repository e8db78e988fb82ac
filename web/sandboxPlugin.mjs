// sandboxPlugin.mjs — builds the code sandbox's two classic scripts, beside sandbox.html
// (web/public/):
//   sandbox.js          web/src/sandbox/entry.js: the frame, the relay and the code Worker
//                       (code agents, the docs' examples); every sandbox loads it
//   sandbox-learner.js  web/src/sandbox/learnerEntry.js: the learners (valley-farm/learn) for
//                       a visitor's learner in the Lab; loaded only when one starts
// Classic scripts because sandbox.html runs with an opaque origin: module scripts from the
// site would need CORS headers that a plain static host does not send, while a classic
// <script src> loads from any host. Vite serves them in dev and emits them in the build.
import { build } from 'vite';
import { packageAliases } from './aliases.mjs';

/** The scripts: file name -> entry (relative to the repository). */
export const SANDBOX_SCRIPTS = {
  'sandbox.js': 'web/src/sandbox/entry.js',
  'sandbox-learner.js': 'web/src/sandbox/learnerEntry.js',
};

async function bundle(root, fileName) {
  const out = await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: packageAliases(root) },
    // a classic script has no import.meta: the engine's URL is unknown there (the page hands
    // the sandbox the engine's bytes instead)
    define: { 'import.meta.url': 'undefined' },
    build: {
      write: false,
      minify: true,
      assetsInlineLimit: 0, // the engine's bytes come from the page, not from this script
      lib: { entry: `${root}${SANDBOX_SCRIPTS[fileName]}`, formats: ['iife'], name: 'valleyFarmSandbox', fileName: () => fileName },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  return outputs.find((o) => o.type === 'chunk' && o.fileName === fileName).code;
}

export function sandboxPlugin(root) {
  const code = new Map(); // file name -> the built script
  return {
    name: 'valley-farm-sandbox',
    async buildStart() {
      for (const fileName of Object.keys(SANDBOX_SCRIPTS)) code.set(fileName, await bundle(root, fileName));
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const fileName = Object.keys(SANDBOX_SCRIPTS).find((f) => req.url?.split('?')[0].endsWith(`/${f}`));
        if (!fileName) return next();
        if (!code.has(fileName)) code.set(fileName, await bundle(root, fileName));
        res.setHeader('Content-Type', 'text/javascript');
        res.end(code.get(fileName));
      });
    },
    generateBundle() {
      for (const [fileName, source] of code) this.emitFile({ type: 'asset', fileName, source });
    },
  };
}
