// learn.js — the page's door to valley-farm/learn (the Lab's Worker, the Lab and the game's
// agent panel import the learners from here). It tells TensorFlow.js where this site serves
// the wasm backend's files: they are build assets of the site, so its Content Security
// Policy allows them, and PPO trains several times faster than on the cpu backend.
import plain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import threaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { setWasmPaths } from 'valley-farm/learn';

// (the threaded file is never fetched: the site is not cross-origin isolated)
setWasmPaths({
  'tfjs-backend-wasm.wasm': plain,
  'tfjs-backend-wasm-simd.wasm': simd,
  'tfjs-backend-wasm-threaded-simd.wasm': threaded,
});

export * from 'valley-farm/learn';
