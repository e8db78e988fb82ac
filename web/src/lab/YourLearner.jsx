// YourLearner.jsx — "Your learner" in the Lab: an editor on a learner's source, opened on one
// of the package's one-file learners (learnerTemplates.js). While it is open, Start trains the
// visitor's code instead of the built-in learner (labModel.js openCode; the code runs only in
// the code sandbox: learnerWorker.js), with the template's settings, curve and memory estimate.
import { useState } from 'preact/hooks';
import { TEMPLATES, TEMPLATE_TITLES as TITLES } from './templateNames.js';
import { learnerLinkQuery } from './learnerLink.js';
import { errorMessage } from '../model/cut.js';

/** Saves `text` as a file named `name` (a learner's .js, a policy's .json). */
export function download({ name, text, type = 'application/json' }) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The file name of a learner's source: the name of the template it came from. */
export const learnerFileName = (code) => `my-${code.template}.js`;

/** settingsQuery: the run's settings as a link has them (labQuery), which a share link carries too. */
export function YourLearner({ lab, settingsQuery }) {
  const running = lab.state === 'running';
  const code = lab.code;
  const [shared, setShared] = useState(null); // the last share link made, to copy by hand if the clipboard refuses
  const [problem, setProblem] = useState(null); // why the template did not open, or no link was made

  const open = (t) => {
    setProblem(null);
    lab.openCode(t).catch((err) => setProblem(`Could not open the ${TITLES[t]} template: ${errorMessage(err)}`));
  };

  async function share() {
    let url;
    try {
      url = `${location.href.split('#')[0]}#/lab?${settingsQuery}&${await learnerLinkQuery(code)}`;
    } catch (err) {
      return setProblem(`Could not make a link to your learner: ${errorMessage(err)}`);
    }
    setShared(url);
    try {
      await navigator.clipboard?.writeText(url);
    } catch {
      // the clipboard refused: the link is shown to copy by hand
    }
  }
  if (!code)
    return (
      <div class="lab-code" data-testid="lab-code">
        <p>
          Or write your own learner: start from one of the package's learners, edit it here, and Start trains it in this tab on every core,
          in a sandbox that cannot reach this site's storage or network (the docs walk through it:{' '}
          <a href="#/docs/write-a-learner">Write a learner</a>).
        </p>
        <div class="lab-buttons">
          {TEMPLATES.map((t) => (
            <button type="button" disabled={running} onClick={() => open(t)}>
              {lab.learners[t] ? `Open your ${TITLES[t]} (kept in this browser)` : `Write your own ${TITLES[t]}`}
            </button>
          ))}
        </div>
        <Notices note={lab.learnerNote} problem={problem} />
      </div>
    );
  return (
    <div class="lab-code" data-testid="lab-code" data-template={code.template}>
      <label for="lab-code-text">
        Your learner, from the {TITLES[code.template]} template: Start trains this code instead of the built-in {code.template}, with its
        settings. Its policy is a {code.template} policy file.
      </label>
      <textarea
        id="lab-code-text"
        class="lab-code-text"
        data-testid="lab-code-text"
        rows={24}
        spellcheck={false}
        autocomplete="off"
        disabled={running}
        value={code.text}
        onInput={(e) => lab.editCode(e.currentTarget.value)}
      />
      <div class="lab-buttons">
        <button type="button" onClick={() => download({ name: learnerFileName(code), text: code.text, type: 'text/javascript' })}>
          Download .js
        </button>
        <button
          type="button"
          disabled={running}
          onClick={() => confirm(`Put back the ${TITLES[code.template]} template? Your changes go.`) && lab.resetCode()}
        >
          Reset to the template
        </button>
        <button type="button" onClick={share}>
          Share link to this learner
        </button>
        <button type="button" disabled={running} onClick={() => lab.closeCode()}>
          Back to the built-in learners
        </button>
      </div>
      {shared && (
        <p class="lab-code-hint">
          A link to this learner and these settings (copied, if the browser let it); it opens your code in the editor, never starts it:{' '}
          <input class="lab-code-link" data-testid="lab-code-link" readOnly value={shared} onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
      <Notices note={lab.learnerNote} problem={problem} />
      <p class="lab-code-hint">
        Your changes are kept in this browser as you type. The downloaded file runs unchanged with{' '}
        <code>npx valley-farm train --algo ./{learnerFileName(code)}</code>.
      </p>
    </div>
  );
}

/** The learner's note (kept, shared, opened) and its problem (an alert), under either view. */
function Notices({ note, problem }) {
  return (
    <>
      {note && <p class="lab-notice">{note}</p>}
      {problem && (
        <p class="lab-notice" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
