// Types of `valley-farm/onnx`: network policies as ONNX models and back (onnx.js).
import type { Policy } from './index.js';

/** The opset the export writes. */
export const ONNX_OPSET: number;
/** The opsets and IR versions the import reads. */
export const ONNX_OPSETS: { readonly min: number; readonly max: number };
export const ONNX_IR_VERSIONS: { readonly min: number; readonly max: number };
/** The ops a policy's graph may use. */
export const ALLOWED_OPS: readonly string[];
/** The most nodes a graph may have, and the largest model read, in bytes. */
export const MAX_NODES: number;
export const MAX_ONNX_BYTES: number;
/** The graph's input and output names: features [N, F] -> logits [N, A] and value [N, 1], or q_values [N, A]. */
export const ONNX_NAMES: { readonly input: 'features'; readonly logits: 'logits'; readonly value: 'value'; readonly q: 'q_values' };
/** The metadata_props keys: which env the features are of, and the network's settings. */
export const METADATA: {
  readonly env: string;
  readonly algo: string;
  readonly history: string;
  readonly memory: string;
  readonly act: string;
};

/** The ONNX model of a saved network policy (ppo, reinforce, dqn; not a recurrent one), checked first. */
export function policyToOnnx(json: unknown): Uint8Array;
/** A saved policy (parsed JSON, its weights in Float32Arrays) of an ONNX model's bytes, checked as data first. */
export function onnxToPolicy(bytes: Uint8Array | ArrayBuffer): object;
/** The policy of an ONNX model's bytes: onnxToPolicy, then loadPolicy. */
export function loadOnnxPolicy(bytes: Uint8Array | ArrayBuffer): Promise<Policy>;
