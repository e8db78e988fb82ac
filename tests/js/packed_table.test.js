// A tabular-q table packed into typed arrays (wasm/learn/packedTable.js), as the page's policy
// Worker hands it over, loads as a policy that plays what the table's rows play, and is held
// to the rows' rules by checkPolicyJSON without a list a row.
import { describe, expect, it } from 'vitest';
import { createLearner, loadPolicy, packTable } from '../../wasm/learn/index.js';
import { checkPolicyJSON } from '../../wasm/learn/policyCheck.js';
import { MAX_TABLE_ROWS } from '../../wasm/learn/tabularQ.js';
import { envSpecs, make } from '../../wasm/index.js';

const B = 'BackwardsValleyFarm-v0';
const A = envSpecs[B].actions.length;
const policyOf = (table) => ({ format: 'valley-farm-policy', version: 1, env: B, algo: 'tabular-q', config: {}, table });
const packedOf = (rows) => policyOf(packTable(rows, A));
const row = (v) => Array(A).fill(v);

describe('a packed tabular-q table', () => {
  it('plays every step of 200 episodes as the same policy from its rows does', async () => {
    const learner = await createLearner({ env: B, algo: 'tabular-q', seed: 2, numEnvs: 8 });
    await learner.trainFor(100_000);
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    learner.dispose();
    expect(json.table.length).toBeGreaterThan(1000);
    const [fromRows, fromPacked] = await Promise.all([loadPolicy(json), loadPolicy(policyOf(packTable(json.table, A)))]);
    const env = await make(B);
    let compared = 0;
    for (let seed = 1; seed <= 200; seed++) {
      let { observation, info } = env.reset({ seed });
      for (let done = false; !done; compared++) {
        const seen = { ...info, legal: env.legalActions() };
        const action = fromRows.act(observation, seen);
        expect(fromPacked.act(observation, seen)).toBe(action);
        const r = env.step(action);
        ({ observation, info } = r);
        done = r.terminated || r.truncated;
      }
    }
    env.close();
    expect(compared).toBe(200 * envSpecs[B].horizon);
    // and it saves the same rows (sorted by key: the packed order)
    const sorted = (table) => [...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    expect(fromPacked.toJSON().table).toEqual(sorted(json.table));
  }, 120_000);

  it('finds every key, whatever its characters (sorted by code unit), and an empty key', async () => {
    const keys = ['', 'b', 'a', 'é', '\u{1F600}', 'ab', 'a,b', 'z'.repeat(1024)];
    const packed = packTable(
      keys.map((k, i) => [k, row(i)]),
      A,
    );
    expect(packed.ends).toHaveLength(keys.length);
    const saved = (await loadPolicy(policyOf(packed))).toJSON().table;
    expect(saved.map(([k]) => k)).toEqual([...keys].sort());
    for (const [i, k] of keys.entries()) expect(new Map(saved).get(k)).toEqual(row(i));
  });

  it('where rows repeat a key, the later counts, as in a Map made from them', async () => {
    const policy = await loadPolicy(
      packedOf([
        ['k', row(1)],
        ['j', row(2)],
        ['k', row(3)],
      ]),
    );
    expect(policy.toJSON().table).toEqual([
      ['j', row(2)],
      ['k', row(3)],
    ]);
  });

  it('is held to the rows’ rules: sizes that agree, keys of at most 1,024 characters, every value finite, at most MAX_TABLE_ROWS rows', () => {
    const good = packedOf([
      ['ab', row(0)],
      ['cd', row(1)],
    ]);
    expect(() => checkPolicyJSON(good)).not.toThrow();
    const broken = (change) => {
      const table = { keys: good.table.keys.slice(), ends: good.table.ends.slice(), values: good.table.values.slice() };
      change(table);
      return () => checkPolicyJSON(policyOf(table));
    };
    expect(broken((t) => (t.values = t.values.subarray(1)))).toThrow(/table\.values must be 11 numbers a row \(22 for 2 rows\), got 21/);
    expect(broken((t) => (t.values[13] = NaN))).toThrow(/table\.values\[13\] must be a finite number, got null/);
    expect(broken((t) => (t.values[0] = Infinity))).toThrow(/table\.values\[0\] must be a finite number/);
    expect(broken((t) => (t.ends[1] = 9))).toThrow(/table\.ends\[1\] must be from 2 to the keys' 4 code units, got 9/);
    expect(broken((t) => (t.ends[0] = 3) && (t.ends[1] = 2))).toThrow(/table\.ends\[1\] must be from 3/);
    expect(broken((t) => (t.ends[1] = 3))).toThrow(/table\.keys must be the rows' 3 code units, got 4/);
    const long = packedOf([['k'.repeat(1025), row(0)]]);
    expect(() => checkPolicyJSON(long)).toThrow(/table's row 0 must be a key of at most 1024 characters, got 1025/);
    const many = policyOf({ keys: new Uint16Array(0), ends: new Uint32Array(MAX_TABLE_ROWS + 1), values: new Float32Array(0) });
    expect(() => checkPolicyJSON(many)).toThrow(new RegExp(`the policy's table has ${MAX_TABLE_ROWS + 1} rows; at most ${MAX_TABLE_ROWS}`));
    // arrays of other types are not a packed table: the rows' check says what a table is
    expect(() => checkPolicyJSON(policyOf({ keys: [], ends: [], values: [] }))).toThrow(/a tabular-q policy needs its "table"/);
  });
});
