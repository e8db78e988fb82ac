// trainWorker.js — the Lab's learner, in a Web Worker so the page keeps its frame rate: the
// training loop and its messages are trainer.js's; this file gives it the Worker's channel,
// and the package that makes the policies (their run record names it).
import { name, version } from '../../../package.json';
import { Trainer } from './trainer.js';

const trainer = new Trainer({ post: (msg) => self.postMessage(msg), made: { package: `${name}@${version}` } });
self.onmessage = ({ data }) => trainer.handle(data);
