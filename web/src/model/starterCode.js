// starterCode.js — what the agent editor holds before the visitor changes it: a three-line
// agent per farm that runs as is and shows the shape of act().
export const starterCode = {
  'ValleyFarm-v0': `// act(observation, info) returns an action: a number 0-11 or a name.
// observation: { view[25], center, inventory, relationships, stepsLeft }
function act(obs) {
  if (obs.view[12] === 3 && obs.inventory.seeds > 0) return 'plant'; // empty soil here
  return ['north', 'south', 'east', 'west'][Math.floor(Math.random() * 4)];
}
`,
  'BackwardsValleyFarm-v0': `// act(observation, info) returns an action: a number 0-10 or a name.
// observation: { terrain[25], status[25], x, y, facing, stepsLeft, farmValue }
function act(obs) {
  // ripe fields are harvested when you stand on them: wander and never water
  return ['north', 'south', 'east', 'west'][Math.floor(Math.random() * 4)];
}
`,
};
