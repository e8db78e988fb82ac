// useModel.js — re-renders a component whenever a model informs (subscribe/inform).
import { useEffect, useState } from 'preact/hooks';

export function useModel(...models) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const offs = models.map((m) => m.subscribe(() => setTick((t) => t + 1)));
    return () => offs.forEach((off) => off());
  }, models);
}
