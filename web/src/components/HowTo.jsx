// HowTo.jsx — the first-visit card of a farm: its goal, its keys (from the adapter's
// actions) and the one idea that is not obvious. Shown once per farm, dismissible, and
// reachable again from the "How to play" button.
export function HowTo({ farm, onClose }) {
  const keys = Object.entries(farm.actions).map(([name, { key }]) => `${key} ${name}`);
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
      <button type="button" class="primary" onClick={onClose}>
        Got it
      </button>
    </section>
  );
}
