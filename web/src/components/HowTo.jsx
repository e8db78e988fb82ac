// HowTo.jsx — the first-visit card of a farm: its goal, its keys (from the adapter's
// actions) and the one idea that is not obvious. Shown once per farm, dismissible (Got it,
// or Escape from anywhere on the page), and reachable again from the "How to play" button.
import { useEffect, useRef } from 'preact/hooks';

export function HowTo({ farm, onClose }) {
  const keys = Object.entries(farm.actions).map(([name, { key }]) => `${key} ${name}`);
  const gotIt = useRef(null);
  // The card is what a visitor needs first: its button takes the focus (without scrolling:
  // on a phone the card sits below the board), so the first Tab or Enter answers it.
  useEffect(() => {
    gotIt.current?.focus({ preventScroll: true });
    const onKey = (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [farm.id]);
  return (
    <section class="panel how-to" aria-labelledby="how-to-title" data-testid="how-to">
      <h2 id="how-to-title">How to play {farm.title}</h2>
      <p>
        <strong>Goal.</strong> {farm.howTo.goal}
      </p>
      <p>
        <strong>Keys.</strong> {keys.join(' · ')}; arrow keys move too; N starts a new map. Or tap the buttons.
      </p>
      <p>
        <strong>The idea.</strong> {farm.howTo.idea}
      </p>
      <button type="button" class="primary" onClick={onClose} ref={gotIt} aria-keyshortcuts="Escape">
        Got it
      </button>
    </section>
  );
}
