// quietIframes.js — happy-dom does not load iframes (the docs embed live farms in them) and
// says so on console.error each time. quietIframes() keeps that one message out of a test
// file's output and lets anything else through.
import { afterAll, beforeAll, vi } from 'vitest';

export function quietIframes() {
  let spy;
  beforeAll(() => {
    const real = console.error;
    spy = vi.spyOn(console, 'error').mockImplementation((...args) => {
      if (!String(args[0]?.message ?? args[0]).includes('Iframe page loading is disabled')) real(...args);
    });
  });
  afterAll(() => spy.mockRestore());
}
