// Every tile kind and entity state of both rules files gets its own drawing and its own
// accessible label — shapes, not colour alone, tell them apart.
import { describe, it, expect } from 'vitest';
import { render } from 'preact';
import { Tile } from '../../web/src/components/tiles/Tile.jsx';
import { Board } from '../../web/src/components/Board.jsx';
import { Agent } from '../../web/src/components/Agent.jsx';
import { Legend } from '../../web/src/components/Legend.jsx';
import { valleyCell } from '../../web/src/model/farms/valley.js';
import { backwardsCell } from '../../web/src/model/farms/backwards.js';
import { cellLabel, stateKey } from '../../web/src/model/labels.js';

function markup(vnode) {
  const host = document.createElement('div');
  render(<svg>{vnode}</svg>, host);
  // class names carry colour only: compare the geometry and text without them
  return host.innerHTML.replace(/ class="[^"]*"/g, '');
}

const valleyStates = [
  ...Array.from({ length: 14 }, (_, code) => valleyCell(code)),
  { kind: 'animal', species: 'chicken', sated: true },
  { kind: 'animal', species: 'chicken', sated: false },
  { kind: 'animal', species: 'cow', sated: true, pending: 1 },
  { kind: 'animal', species: 'cow', sated: false, pending: 2 },
  { kind: 'animal', species: 'sheep', sated: true, pending: 1 },
  ...[0, 1, 2].map((mood) => ({ kind: 'villager', mood })),
  { kind: 'unknown' },
];
const backwardsStates = [
  ...[0, 1, 2].map((code) => backwardsCell(code, 0)),
  ...[0, 1, 2, 3].map((s) => backwardsCell(3, s)),
  ...[0, 1, 2].map((s) => backwardsCell(4, s)),
  ...[0, 1, 2].map((s) => backwardsCell(5, s)),
  { kind: 'pen', health: 2, rewarded: true },
  { kind: 'house', mood: 2, rewarded: true },
];

describe.each([
  ['ValleyFarm-v0', valleyStates],
  ['BackwardsValleyFarm-v0', backwardsStates],
])('%s', (_, states) => {
  it('each tile code and entity state draws a different picture', () => {
    const drawings = states.map((d) => markup(<Tile d={d} />));
    const seen = new Map();
    drawings.forEach((m, i) => {
      expect(seen.has(m), `${stateKey(states[i])} draws like ${seen.get(m)}`).toBe(false);
      seen.set(m, stateKey(states[i]));
    });
  });

  it('each tile code and entity state has a different label', () => {
    const labels = states.map(cellLabel);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe('labels', () => {
  it('say crop stages, hunger, pending products and moods in words', () => {
    expect(cellLabel(valleyCell(5))).toBe('Crop growing (stage 2)');
    expect(cellLabel({ kind: 'animal', species: 'cow', sated: true, satedStepsLeft: 7, pending: 2 })).toBe(
      'Cow, sated for 7 more steps, 2 milk waiting',
    );
    expect(cellLabel({ kind: 'animal', species: 'chicken', sated: false, pending: 2 })).toBe('Chicken, hungry, 2 eggs waiting');
    expect(cellLabel({ kind: 'villager', index: 1, mood: 2, relationship: 57.5 })).toBe('Villager 1, friendly (relationship 57.5)');
    expect(cellLabel(backwardsCell(4, 0, { bonus: 2, rewarded: false }))).toBe('Pen, animal Weak, bonus 2');
    expect(cellLabel(backwardsCell(5, 2, { bonus: 5, rewarded: true }))).toBe('House, villager Friendly, bonus 5 (paid)');
    expect(cellLabel(backwardsCell(3, 3, { value: 4 }))).toBe('Field, Harvest-Ready (stage 3), value 4');
  });

  it('mark cells seen earlier as last seen, and animals whose hunger is hidden as such', () => {
    expect(cellLabel({ kind: 'ground', seen: 'past' })).toBe('Ground (last seen)');
    expect(cellLabel({ kind: 'animal', species: 'sheep' })).toMatch(/not visible from here/);
    expect(cellLabel({ kind: 'villager' })).toMatch(/mood not visible/);
  });
});

describe('agent', () => {
  it('draws a different arrow for each facing, and none in the valley', () => {
    const pictures = [undefined, 0, 1, 2, 3].map((f) => markup(<Agent x={0} y={0} facing={f} />));
    expect(new Set(pictures).size).toBe(5);
    expect(pictures[0]).not.toContain('rotate');
  });
});

describe('board', () => {
  const cells = [
    [{ kind: 'ground' }, { kind: 'soil', stage: 3 }, { kind: 'obstacle' }],
    [{ kind: 'market' }, { kind: 'ground' }, { kind: 'animal', species: 'cow', sated: false }],
  ];

  it('labels every cell with its words and position, and tags its kind and state', () => {
    const host = document.createElement('div');
    render(<Board cells={cells} pos={{ x: 1, y: 1 }} view="world" title="map" />, host);
    const g = host.querySelectorAll('g.cell');
    expect(g).toHaveLength(6);
    expect(g[1].getAttribute('aria-label')).toBe('Crop mature (stage 3): harvest it, x 1 y 0');
    expect(g[1].dataset.state).toBe('soil-3');
    expect(g[5].dataset.state).toBe('animal-cow-hungry');
    expect(g[1].querySelector('title').textContent).toBe('Crop mature (stage 3): harvest it');
  });

  it('sends a click on a neighbouring cell only', () => {
    const host = document.createElement('div');
    const clicks = [];
    render(<Board cells={cells} pos={{ x: 1, y: 1 }} view="world" title="map" onCell={(x, y) => clicks.push([x, y])} />, host);
    for (const g of host.querySelectorAll('g.cell')) g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(clicks).toEqual([
      [1, 0],
      [0, 1],
      [2, 1],
    ]);
  });

  it("greys cells last seen in the agent's-eyes view", () => {
    const host = document.createElement('div');
    render(
      <Board
        cells={[
          [
            { kind: 'ground', seen: 'past' },
            { kind: 'unknown', seen: 'never' },
          ],
        ]}
        view="eyes"
        title="map"
      />,
      host,
    );
    expect(host.querySelectorAll('.fog')).toHaveLength(1);
    expect(host.querySelector('[data-kind="unknown"]').getAttribute('aria-label')).toBe('Not seen yet, x 1 y 0');
  });
});

describe('legend', () => {
  it.each(['ValleyFarm-v0', 'BackwardsValleyFarm-v0'])('lists the states of %s, each with a drawing', (id) => {
    const host = document.createElement('div');
    render(<Legend envId={id} />, host);
    const items = host.querySelectorAll('.legend-list li');
    expect(items.length).toBeGreaterThan(14);
    for (const li of items) expect(li.querySelector('svg')).not.toBeNull();
  });
});
