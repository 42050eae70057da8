import { useState } from 'react';

/**
 * Whether `isOpen` has been true since the component mounted. A closed MUI dialog, menu or drawer
 * renders nothing but still runs its hooks and styles on every render of its parent; rendering it
 * only once it has first opened (and from then on, so that it still animates closed) keeps that
 * work out of the page's first render.
 */
export function useHasOpened(isOpen: boolean): boolean {
  const [hasOpened, setHasOpened] = useState(isOpen);
  if (isOpen && !hasOpened) setHasOpened(true);
  return hasOpened || isOpen;
}
