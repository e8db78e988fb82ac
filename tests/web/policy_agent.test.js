// A saved policy from a stranger (a message, a file): a file is refused by its size before it
// is read, and a policy the runner replaces frees its tensors (TensorFlow.js's memory is not
// collected: policies left behind filled it until no policy loaded in the tab). The learners
// are stood in for: what loadPolicy checks is tested with the package (tests/js).
import { describe, expect, it, vi } from 'vitest';
import { FarmApp } from '../../web/src/model/app.js';
import { createHandle } from '../../web/src/model/handle.js';
import { MAX_POLICY_FILE_BYTES, readPolicyFile } from '../../web/src/model/policyAgent.js';

const loaded = [];
vi.mock('../../web/src/learn.js', () => ({
  loadPolicy: async (json) => {
    if (json.format !== 'valley-farm-policy') throw new TypeError('not a valley-farm policy');
    const policy = { env: json.env, algo: 'ppo', act: () => 'wait', dispose: vi.fn() };
    loaded.push(policy);
    return policy;
  },
}));

// what the page's check adds to the package's is tested here; the package's own check is stood in for
vi.mock('valley-farm/learn', () => ({
  checkPolicyJSON: (json) => {
    if (json?.format !== 'valley-farm-policy') throw new TypeError('not a valley-farm policy');
  },
}));

const policy = {
  format: 'valley-farm-policy',
  version: 1,
  env: 'ValleyFarm-v0',
  algo: 'ppo',
  weights: [{ shape: [2], values: [0.5, -1] }],
};

describe('a saved policy as the agent', () => {
  it('a policy the runner replaces is disposed; the one in use is not', async () => {
    const app = new FarmApp({ planMap: null, storage: null });
    await app.start('');
    const handle = createHandle(app);
    await handle.setAgent({ policy });
    expect(await handle.run({ episodes: 1 })).toHaveLength(1);
    await handle.setAgent({ policy });
    expect(loaded[0].dispose).toHaveBeenCalledTimes(1);
    expect(loaded[1].dispose).not.toHaveBeenCalled();
    await handle.setAgent(() => 'wait');
    expect(loaded[1].dispose).toHaveBeenCalledTimes(1);
  });

  it('a policy file over the size limit is refused before it is read', async () => {
    const text = vi.fn(async () => '{}');
    await expect(readPolicyFile({ name: 'big.json', size: MAX_POLICY_FILE_BYTES + 1, text })).rejects.toThrow(
      `big.json has ${MAX_POLICY_FILE_BYTES + 1} bytes; a policy file is at most 20 MB.`,
    );
    expect(text).not.toHaveBeenCalled();
    await expect(readPolicyFile(new Blob(['{"format": '], { type: 'application/json' }))).rejects.toThrow(/^the file is not JSON: /);
    await expect(readPolicyFile(new Blob(['{"format": "x"}']))).rejects.toThrow('not a valley-farm policy');
    const read = await readPolicyFile(new Blob([JSON.stringify(policy)]));
    // the weights come back as Float32Arrays: they move from the checking Worker without a copy
    expect(read).toEqual({ ...policy, weights: [{ shape: [2], values: new Float32Array([0.5, -1]) }] });
  });
});
