import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function that stays the same for as long as the component lives and always calls the
 * newest `callback`. A memoised child (the daily grid) then keeps its props across the
 * parent's drawings, while what it calls still reads the parent's newest state.
 */
export function useLatestCallback<Args extends unknown[], Result>(callback: (...args: Args) => Result): (...args: Args) => Result {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
