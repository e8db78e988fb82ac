// trainWorker.js — the Lab's learner, in a Web Worker so the page keeps its frame rate: the
// training loop and its messages are trainer.js's; this file gives it the Worker's channel,
// the package that makes the policies (their run record names it) and TensorFlow.js's backend.
import { tfBackend } from '../learn.js'; // first: it tells TensorFlow.js where the site serves its wasm files
import { name, version } from '../../../package.json';
import { Trainer } from './trainer.js';

const trainer = new Trainer({ post: (msg) => self.postMessage(msg), made: { package: `${name}@${version}` }, backend: tfBackend });
self.onmessage = ({ data }) => trainer.handle(data);
