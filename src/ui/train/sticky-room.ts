import { useCallback } from 'react';

/**
 * A callback ref for the Train screen's sticky actions bar: while it is in the page, the page's
 * scroll-padding-bottom is its height (CSS `--sticky-actions-h`), so whatever the page or the
 * browser scrolls into view — a focused setting, a problem's link — stops above the bar, not under it.
 * The bar grows with a problem's message (several lines at 390 px), so its height is followed.
 */
export function useStickyRoom(): (el: HTMLElement | null) => () => void {
  return useCallback((el: HTMLElement | null) => {
    const root = document.documentElement;
    const seen = new ResizeObserver(([e]) =>
      root.style.setProperty('--sticky-actions-h', `${Math.ceil(e.borderBoxSize[0]?.blockSize ?? 0)}px`),
    );
    if (el) seen.observe(el);
    return () => {
      seen.disconnect();
      root.style.removeProperty('--sticky-actions-h');
    };
  }, []);
}
