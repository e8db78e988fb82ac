// learnerTemplates.js — the templates of "Your learner": the package's own one-file learners,
// their text as shipped (read at build time, never copied), made a learner of the visitor's
// own as docs/adding-a-learner.md says: its imports from 'valley-farm/learn', a name and title
// of its own, and `url: import.meta.url` (so that `npx valley-farm train --algo ./file.js` runs
// its threads from the file). Each change is on one line, so a line of the template is the
// same line of the shipped file. The Lab loads this file (a chunk of its own) only when the
// editor opens.
import reinforce from '../../../wasm/learn/reinforce.js?raw';
import ppo from '../../../wasm/learn/ppo.js?raw';
import dqn from '../../../wasm/learn/dqn.js?raw';

import { TEMPLATES, TEMPLATE_TITLES as TITLES } from './templateNames.js';

export { TEMPLATES };
const SHIPPED = { reinforce, ppo, dqn };

/** The template's text as a learner of the visitor's own, named `my-${algo}`. */
export function templateSource(algo) {
  if (!Object.hasOwn(SHIPPED, algo)) throw new Error(`no template ${String(algo).slice(0, 40)}; the templates are ${TEMPLATES.join(', ')}`);
  const steps = [
    ["} from './kit.js';", "} from 'valley-farm/learn';"],
    [`  name: '${algo}',`, `  name: 'my-${algo}',`],
    [`  title: '${TITLES[algo]}',`, `  title: 'My ${TITLES[algo]}', url: import.meta.url, // its threads import this file`],
  ];
  let text = SHIPPED[algo];
  for (const [from, to] of steps) {
    if (!text.includes(from))
      throw new Error(`the ${algo} template no longer has the line ${from} (learnerTemplates.js follows the shipped file)`);
    text = text.replace(from, to);
  }
  return text;
}
