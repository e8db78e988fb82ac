// tf.js — TensorFlow.js, loaded only when a neural learner or policy needs it (dynamic
// import: tabular learners and the engine never pull it in). The wasm backend trains a
// small MLP about 5 times faster than the cpu one here. In Node its .wasm files are read
// from the installed package; a browser needs to be told where the site serves them
// (setWasmPaths), and runs the cpu backend until it is, or where wasm cannot start.
// TensorFlow.js is an optional peer dependency of valley-farm: install @tensorflow/tfjs
// (and @tensorflow/tfjs-backend-wasm) to use neural learners.
let loading = null;
let wasmPaths = null;

// the backend takes a URL for each, though a page that is not cross-origin isolated never
// loads the threaded one
const WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

/**
 * Where a browser finds the wasm backend's files: an object with a URL for each name in
 * WASM_FILES (e.g. a bundler's asset URLs), or a folder URL ending in '/'. Call it before the first learner or policy loads TensorFlow.js.
 */
export function setWasmPaths(paths) {
  const folder = typeof paths === 'string' && paths.endsWith('/');
  const map = paths !== null && typeof paths === 'object' && WASM_FILES.every((f) => typeof paths[f] === 'string' && paths[f] !== '');
  if (!folder && !map)
    throw new TypeError(
      `valley-farm/learn: setWasmPaths takes a folder URL ending in '/' or an object with a URL for each of ${WASM_FILES.join(', ')}`,
    );
  if (loading) throw new Error('valley-farm/learn: TensorFlow.js is already loaded; call setWasmPaths before the first learner or policy');
  wasmPaths = folder ? paths : Object.fromEntries(WASM_FILES.map((f) => [f, paths[f]]));
}

/**
 * The wasm backend multiplies a transposed operand (matMul(a, b, transposeA, transposeB),
 * which is what every dense layer's gradient asks for) on a slow path, several times slower
 * than transposing first and multiplying on its fast path. Training spent most of its time
 * there, so BatchMatMul is re-registered to do just that: the same product, the same
 * gradients, computed by the backend's own two kernels (npm run bench:learn measures the
 * training speed). Idempotent; a no-op where the backend has no such kernel.
 */
export function transposeBeforeMatMul(tf) {
  const original = tf.getKernel('BatchMatMul', 'wasm');
  const transpose = tf.getKernel('Transpose', 'wasm')?.kernelFunc;
  if (!original || !transpose || original.kernelFunc.transposesFirst) return;
  /** The tensor with its last two axes swapped (a new tensor of the backend). */
  const swapLast = (x, backend) => {
    const perm = x.shape.map((_, i) => i);
    const r = perm.length;
    [perm[r - 2], perm[r - 1]] = [perm[r - 1], perm[r - 2]];
    return transpose({ inputs: { x }, backend, attrs: { perm } });
  };
  function kernelFunc({ inputs, backend, attrs }) {
    if (!attrs.transposeA && !attrs.transposeB) return original.kernelFunc({ inputs, backend, attrs });
    const a = attrs.transposeA ? swapLast(inputs.a, backend) : inputs.a;
    const b = attrs.transposeB ? swapLast(inputs.b, backend) : inputs.b;
    try {
      return original.kernelFunc({ inputs: { a, b }, backend, attrs: { ...attrs, transposeA: false, transposeB: false } });
    } finally {
      if (a !== inputs.a) backend.disposeData(a.dataId);
      if (b !== inputs.b) backend.disposeData(b.dataId);
    }
  }
  kernelFunc.transposesFirst = true;
  tf.unregisterKernel('BatchMatMul', 'wasm');
  tf.registerKernel({ ...original, kernelFunc });
}

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
    const node = globalThis.process?.versions?.node;
    try {
      if (!node && !wasmPaths) throw new Error('browser without setWasmPaths: cpu backend');
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      if (node) {
        const { createRequire } = await import(/* @vite-ignore */ `node:${'module'}`);
        wasm.setWasmPaths(
          createRequire(import.meta.url)
            .resolve('@tensorflow/tfjs-backend-wasm')
            .replace(/[^/\\]+$/, ''),
        );
      } else wasm.setWasmPaths(wasmPaths);
      if (!(await tf.setBackend('wasm'))) throw new Error('wasm backend refused');
      transposeBeforeMatMul(tf);
    } catch (err) {
      // in Node the wasm backend is missing only when it was not installed: say so, since
      // TensorFlow.js's own hint names a package (tfjs-node) valley-farm does not use
      if (node && err?.code === 'ERR_MODULE_NOT_FOUND' && /tfjs-backend-wasm/.test(err.message))
        console.warn(
          `valley-farm/learn: @tensorflow/tfjs-backend-wasm is not installed, so training runs on the cpu backend, several times slower. Install it: npm install @tensorflow/tfjs-backend-wasm@${tf.version_core}`,
        );
      await tf.setBackend('cpu');
    }
    await tf.ready();
    return tf;
  })();
  return loading;
}

/** The backend TensorFlow.js runs on ('wasm' or 'cpu'), once loaded; null before. */
export async function tfBackend() {
  return loading ? (await loading).getBackend() : null;
}
