// tf.js — TensorFlow.js, loaded only when a neural learner or policy needs it (dynamic
// import: tabular learners and the engine never pull it in). The wasm backend trains a
// small MLP about 5 times faster than the cpu one here; in Node its .wasm files are read
// from the installed package. Where it cannot start, the cpu backend does the same maths.
// TensorFlow.js is an optional peer dependency of valley-farm: install @tensorflow/tfjs
// (and @tensorflow/tfjs-backend-wasm) to use neural learners.
let loading = null;

export function loadTf() {
  loading ??= (async () => {
    let tf;
    try {
      tf = await import('@tensorflow/tfjs');
    } catch (err) {
      throw new Error(
        `valley-farm/learn: neural learners need TensorFlow.js: npm install @tensorflow/tfjs @tensorflow/tfjs-backend-wasm (${err.message})`,
      );
    }
    // In Node the wasm backend's files are found in the installed package. In a browser they
    // would have to be served beside the page (a site's Content Security Policy keeps them
    // from coming from anywhere else), so there the cpu backend runs.
    const node = globalThis.process?.versions?.node;
    try {
      if (!node) throw new Error('browser: cpu backend');
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      const { createRequire } = await import(/* @vite-ignore */ `node:${'module'}`);
      const dir = createRequire(import.meta.url)
        .resolve('@tensorflow/tfjs-backend-wasm')
        .replace(/[^/\\]+$/, '');
      wasm.setWasmPaths(dir);
      if (!(await tf.setBackend('wasm'))) throw new Error('wasm backend refused');
    } catch {
      await tf.setBackend('cpu');
    }
    await tf.ready();
    return tf;
  })();
  return loading;
}
