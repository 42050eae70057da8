import {
  type Range,
  type VirtualItem,
  defaultRangeExtractor,
  measureElement,
  useWindowVirtualizer,
} from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** Rows rendered beyond each edge of the viewport, so fast scrolling and Tab find them ready. */
const OVERSCAN = 8;

export type WindowRow = {
  /** The position in the loaded list (0-based). */
  index: number;
  key: VirtualItem['key'];
  /** Empty space to leave before this row: the rows between it and the one before are not rendered. */
  gapBefore: number;
};

/**
 * Virtualises a list that scrolls with the page (decision 0029): only the rows in and near the
 * viewport are rendered, the space of the others is kept, so hundreds of loaded cases scroll and
 * re-render like a few dozen. The row holding focus and its neighbours stay rendered wherever the
 * page scrolls, so focus is never lost and Tab (or Shift+Tab) always finds the next (or previous)
 * row in the document; focusing it scrolls it into view, which renders the rows around it. Each
 * rendered row reports focus with `onRowFocus(id)`.
 */
export function useWindowRows<TList extends HTMLElement, TRow extends Element = Element>({
  items,
  estimateSize,
}: {
  items: readonly { id: string }[];
  estimateSize: number;
}) {
  const count = items.length;
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const indexById = useMemo(() => new Map(items.map((item, index) => [item.id, index])), [items]);
  const focusedIndex = focusedId === null ? -1 : (indexById.get(focusedId) ?? -1);
  const onRowFocus = useCallback((id: string) => setFocusedId((current) => (current === id ? current : id)), []);
  // Stable while the list is: the virtualiser recomputes its layout when the key function changes.
  const getKey = useCallback((index: number) => items[index]?.id ?? String(index), [items]);
  const listRef = useRef<TList>(null);
  // Where the list starts on the page: the virtualiser works in page offsets. Measured again
  // whenever the page's height changes, since what sits above the list (alerts, wrapped filters)
  // can move it, and the viewport's width wraps the text above it.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const list = listRef.current;
      if (list) setScrollMargin(Math.round(list.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex < 0 || focusedIndex >= range.count) return indexes;
      const kept = [focusedIndex - 1, focusedIndex, focusedIndex + 1].filter((index) => index >= 0 && index < range.count);
      return [...new Set([...indexes, ...kept])].sort((a, b) => a - b);
    },
    [focusedIndex],
  );
  const virtualizer = useWindowVirtualizer<TRow>({
    count,
    estimateSize: () => estimateSize,
    overscan: OVERSCAN,
    scrollMargin,
    getItemKey: getKey,
    rangeExtractor,
    // Rendered rows are measured (a row's height can differ from the estimate by a border or a
    // wrapped line); an element without layout (a test's DOM) keeps the estimate.
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || estimateSize,
  });

  const virtualItems = virtualizer.getVirtualItems();
  const rows: WindowRow[] = virtualItems.map((item, position) => ({
    index: item.index,
    key: item.key,
    gapBefore: Math.max(item.start - (virtualItems[position - 1]?.end ?? scrollMargin), 0),
  }));
  const lastEnd = virtualItems.at(-1)?.end ?? scrollMargin;
  const gapAfter = Math.max(virtualizer.getTotalSize() - (lastEnd - scrollMargin), 0);
  /** Give each rendered row `ref={measureRow}` and `data-index={row.index}`. */
  return { listRef, rows, gapAfter, measureRow: virtualizer.measureElement, onRowFocus };
}
