// learnerLink.js — a visitor's learner in a Lab share link:
//   #/lab?env=…&algo=reinforce&…&learner=reinforce&allow=code&code=<the source, deflated, base64url>
// A link is a stranger's input, and this one carries code. As for code agents sent by message
// (web/src/model/messages.js), code arrives only with the opt-in `allow=code`: a link without
// it has its code refused, with a note saying why. With it, the code is only put in the editor
// (labModel.js openCode): it runs in the code sandbox, and only when the visitor presses Start.
import { TEMPLATES } from './templateNames.js';
import { MAX_LEARNER_CHARS } from './learnerStore.js';

/** The link's keys that are a learner's, not the run's settings (labQuery.js). */
export const LEARNER_KEYS = ['learner', 'code', 'allow'];
// a code parameter longer than this is refused before it is decoded (deflated source is smaller)
const MAX_CODE_PARAM_CHARS = Math.ceil((MAX_LEARNER_CHARS * 4) / 3) + 4;

/** { query: the link's query without the learner's keys, link: { template, code, allow } or null }. */
export function splitLearnerLink(query = '') {
  const q = new URLSearchParams(query);
  if (!q.has('code') && !q.has('learner')) return { query, link: null };
  const link = {
    template: q.get('learner'),
    code: q.get('code') ?? '',
    allow: q.getAll('allow').some((v) => v.split(',').includes('code')),
  };
  for (const k of LEARNER_KEYS) q.delete(k);
  return { query: q.toString(), link };
}

const toBase64Url = (bytes) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};
const fromBase64Url = (text) => Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0));

async function through(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The learner's part of a share link: 'learner=…&allow=code&code=…'. */
export async function learnerLinkQuery({ template, text }) {
  const packed = await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return `learner=${template}&allow=code&code=${toBase64Url(packed)}`;
}

/** The learner a link carries ({ template, text }); throws an error that says what was wrong and what is allowed. */
export async function readLearnerLink(link) {
  if (!link.allow)
    throw new Error(
      "this link carries a learner's code, which the Lab opens only from a link with allow=code (the code then waits in the editor until you press Start); it was not opened",
    );
  if (!TEMPLATES.includes(link.template))
    throw new Error(`the link's learner=${String(link.template).slice(0, 40)} is not a template; it is one of ${TEMPLATES.join(', ')}`);
  if (!/^[\w-]*$/.test(link.code) || link.code.length > MAX_CODE_PARAM_CHARS)
    throw new Error(
      `the link's code is not a learner's source as the Lab writes it (base64url, at most ${MAX_CODE_PARAM_CHARS} characters)`,
    );
  let text;
  try {
    const packed = fromBase64Url(link.code);
    // inflated in pieces: a small link that inflates past the limit is refused without holding it all
    const reader = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_LEARNER_CHARS * 4) {
        reader.cancel();
        throw new RangeError('too long');
      }
      parts.push(value);
    }
    text = new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
  } catch (err) {
    throw new Error(
      err instanceof RangeError
        ? `the link's code is longer than a learner may be (${MAX_LEARNER_CHARS.toLocaleString('en')} characters)`
        : "the link's code is damaged: it does not decode to a learner's source",
    );
  }
  if (text.length > MAX_LEARNER_CHARS)
    throw new Error(`the link's code is longer than a learner may be (${MAX_LEARNER_CHARS.toLocaleString('en')} characters)`);
  return { template: link.template, text };
}
