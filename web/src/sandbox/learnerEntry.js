// learnerEntry.js — the learner runner: a classic script of its own (built to
// sandbox-learner.js by web/sandboxPlugin.mjs), apart from the sandbox's script (entry.js) so
// that code agents and the docs' examples never load the learners. The page fetches it only
// when a visitor's learner starts, and hands its text to the sandbox with 'learner:start'.
// It runs in two places:
//
//  1. In the sandbox's code Worker, through importScripts (entry.js): it leaves the learner
//     coordinator (learnerBox.js) and its own copy of the engine's setup at LEARNER_RUNNER.
//  2. In each thread of the visitor's run (a Worker named THREAD_NAME, started from this
//     script's text by the coordinator, nested under the code Worker): it serves the thread.
import { useEngineBytes } from 'valley-farm';
import { LEARNER_RUNNER } from './relay.js';
import { learnerCoordinator, learnerThreadMain, THREAD_NAME } from './learnerBox.js';

if (self.name === THREAD_NAME) learnerThreadMain(self);
else self[LEARNER_RUNNER] = { learnerCoordinator, useEngineBytes };
