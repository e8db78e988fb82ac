// export.mjs — `npx valley-farm export POLICY.json --onnx OUT.onnx [--force]`
// Writes a saved network policy (valley-farm train, the Lab's Download) as an ONNX model
// (wasm/learn/onnx.js says what the model holds), for onnxruntime and the other languages.
// The output is checked before any work and written whole, as train's are (outputs.mjs).
import { readFile, stat } from 'node:fs/promises';
import { UsageError, helpText, parseOptions, wantsHelp } from './args.mjs';
import { checkOutputs, reason, writeWhole } from './outputs.mjs';

const USAGE = 'valley-farm export POLICY.json --onnx OUT.onnx [--force]';
/** The largest policy file read: the page's limit (web/src/model/policyFile.js) and then some. */
const MAX_POLICY_BYTES = 100e6;

const OPTIONS = {
  onnx: { arg: 'FILE', what: 'write the policy as an ONNX model to FILE (required)' },
  force: { what: 'replace FILE if it exists' },
};

/**
 * valley-farm/onnx (learn/onnx.js), whose protobuf is the onnx-proto package: an optional peer
 * dependency, so that the package installs nothing more for those who never touch ONNX. Its
 * absence is said with the fix.
 */
export async function onnxModule() {
  try {
    return await import('../learn/onnx.js');
  } catch (err) {
    if (err.code !== 'ERR_MODULE_NOT_FOUND' || !/onnx-proto/.test(err.message)) throw err;
    throw new Error('reading and writing ONNX models needs the onnx-proto package beside valley-farm: npm install onnx-proto', {
      cause: err,
    });
  }
}

export function help() {
  return helpText(
    USAGE,
    'Writes a saved network policy (ppo, reinforce or dqn; not a recurrent one) as an ONNX model:\n' +
      'input "features" float32 [N, F] (the engine\'s features over the policy\'s history), outputs "logits"\n' +
      '[N, actions] and "value" [N, 1], or "q_values" [N, actions] for dqn. docs/python.md ("Policies as ONNX").',
    [['options', OPTIONS]],
  );
}

function parse(argv) {
  const { values, positionals } = parseOptions(argv, OPTIONS, { positionals: true });
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? `name one policy file, not ${positionals.length}` : 'name the policy file (.json) to export');
  if (values.onnx === undefined) throw new UsageError('--onnx FILE is required: the file to write the model to');
  if (!values.onnx.endsWith('.onnx')) throw new UsageError(`--onnx ${values.onnx.slice(0, 60)}: name a file ending in .onnx`);
  return { policy: positionals[0], out: values.onnx, force: Boolean(values.force) };
}

export async function main(argv) {
  if (wantsHelp(argv)) {
    process.stdout.write(help());
    return 0;
  }
  let o;
  let real;
  try {
    o = parse(argv);
    let size;
    try {
      size = (await stat(o.policy)).size;
    } catch (err) {
      throw new UsageError(`cannot read ${o.policy.slice(0, 100)}: ${reason(err)}`);
    }
    if (size > MAX_POLICY_BYTES)
      throw new UsageError(`${o.policy.slice(0, 100)} has ${size} bytes; a policy file is at most ${MAX_POLICY_BYTES / 1e6} MB`);
    [real] = checkOutputs([{ flag: '--onnx', file: o.out }], { force: o.force, inputs: [{ flag: 'POLICY', file: o.policy }] });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`valley-farm export: ${err.message}\nusage: ${USAGE}\n(valley-farm export --help lists every option)`);
    return 2;
  }
  let bytes;
  try {
    let json;
    try {
      json = JSON.parse(await readFile(o.policy, 'utf8'));
    } catch (err) {
      throw new Error(`${o.policy.slice(0, 100)} is not JSON: ${String(err.message).slice(0, 100)}`);
    }
    const { policyToOnnx } = await onnxModule();
    bytes = policyToOnnx(json);
  } catch (err) {
    console.error(`valley-farm export: ${err.message}`);
    return 2;
  }
  try {
    writeWhole(real, bytes, { replace: o.force });
  } catch (err) {
    console.error(`valley-farm export: could not write ${o.out.slice(0, 100)}: ${reason(err)}`);
    return 1;
  }
  console.log(`wrote ${o.out} (${bytes.length.toLocaleString('en')} bytes)`);
  return 0;
}
