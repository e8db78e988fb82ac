// The loader: what a user sees when the engine cannot be loaded, and that a failed load is
// not remembered (the next call tries again).
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

it('an engine without WebAssembly SIMD is told what the module needs, and a later load retries', async () => {
  vi.resetModules();
  const api = await import('../../wasm/index.js');
  const realCompile = WebAssembly.compile;
  const compile = vi.spyOn(WebAssembly, 'compile').mockImplementationOnce(async () => {
    throw new WebAssembly.CompileError('Compiling function #4 failed: invalid simd opcode 0xfd');
  });
  const failed = api.make('ValleyFarm-v0');
  await expect(failed).rejects.toThrow(/valley-farm: this JavaScript engine cannot compile valley_farm\.wasm/);
  await expect(failed).rejects.toThrow(
    /lacks WebAssembly SIMD \(it needs Chrome 91\+, Firefox 89\+, Safari 16\.4\+, Node 16\.4\+\), or the file is damaged/,
  );
  await expect(failed).rejects.toThrow(/invalid simd opcode/);

  compile.mockImplementation(realCompile);
  const env = await api.make('ValleyFarm-v0');
  const { observation } = env.reset({ seed: 3 });
  expect(observation.view).toHaveLength(25);
  expect(observation.inventory.seeds).toBe(5);
  env.close();
});

it('other load failures pass through unchanged', async () => {
  vi.resetModules();
  const api = await import('../../wasm/index.js');
  vi.spyOn(WebAssembly, 'compile').mockImplementationOnce(async () => {
    throw new RangeError('out of memory');
  });
  await expect(api.make('BackwardsValleyFarm-v0')).rejects.toThrow(/^out of memory$/);
});

it('a module whose description differs from engine_spec.js is refused, saying what to rebuild', async () => {
  vi.resetModules();
  const api = await import('../../wasm/index.js');
  const { readFileSync } = await import('node:fs');
  const bytes = readFileSync(new URL('../../wasm/valley_farm.wasm', import.meta.url));
  // another engine: the same code with one farm's id changed in its data
  const at = bytes.indexOf('BackwardsValleyFarm-v0');
  expect(at).toBeGreaterThan(0);
  const other = Uint8Array.from(bytes);
  other[at + 'BackwardsValleyFarm-v'.length] = '9'.charCodeAt(0);
  api.useEngineBytes(other);
  await expect(api.make('ValleyFarm-v0')).rejects.toThrow(
    /valley_farm\.wasm and wasm\/engine_spec\.js describe different engines.*npm run build:wasm/,
  );
});
