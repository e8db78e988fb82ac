// sandboxPlugin.mjs — builds web/src/sandbox/entry.js into one classic script, sandbox.js,
// beside sandbox.html (web/public/). A classic script because sandbox.html runs with an
// opaque origin: module scripts from the site would need CORS headers that a plain static
// host does not send, while a classic <script src> loads from any host. Vite serves it in
// dev and emits it in the build.
import { build } from 'vite';
import { packageAliases } from './aliases.mjs';

async function bundle(root) {
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
      lib: { entry: `${root}web/src/sandbox/entry.js`, formats: ['iife'], name: 'valleyFarmSandbox', fileName: () => 'sandbox.js' },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  return outputs.find((o) => o.type === 'chunk' && o.fileName === 'sandbox.js').code;
}

export function sandboxPlugin(root) {
  let code = null;
  return {
    name: 'valley-farm-sandbox',
    async buildStart() {
      code = await bundle(root);
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (!req.url?.split('?')[0].endsWith('/sandbox.js')) return next();
        code ??= await bundle(root);
        res.setHeader('Content-Type', 'text/javascript');
        res.end(code);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'sandbox.js', source: code });
    },
  };
}
