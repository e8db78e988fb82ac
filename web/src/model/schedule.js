// schedule.js — yielding to the browser between slices of work. A MessageChannel message
// runs after pending input and rendering tasks, without setTimeout's 4 ms clamp.
let channel = null;
const waiting = [];

export function yieldToBrowser() {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
