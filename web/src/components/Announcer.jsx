// Announcer.jsx — a polite live region for screen readers: after each step, what it did
// (its events, or why the action was illegal) and what is now around the agent. Visually
// hidden: the same facts are on the page in the status panel and the event log.
import { cellLabel } from '../model/labels.js';

export function Announcer({ session }) {
  const { observation: obs, farm } = session;
  if (!obs || session.actions.length === 0) return <p class="sr-only" aria-live="polite" data-testid="announcer" />;
  const win = farm.windowCells(obs);
  const did = session.lastLegal
    ? session.lastEvents.map((e) => e.text).join('. ')
    : `Illegal: ${session.lastIllegal?.why.text ?? 'it changed nothing'}`;
  const facing = farm.facing(obs); // the window cell in front: north, south, east, west of 12
  const ahead = facing === undefined ? '' : `In front: ${cellLabel(win[[7, 17, 13, 11][facing]]).toLowerCase()}. `;
  return (
    <p class="sr-only" aria-live="polite" data-testid="announcer">
      Step {session.actions.length}: {did ? `${did}. ` : ''}
      {ahead}Here: {cellLabel(win[12]).toLowerCase()}.{session.done ? ` Episode over, return ${Math.round(session.ret * 100) / 100}.` : ''}
    </p>
  );
}
