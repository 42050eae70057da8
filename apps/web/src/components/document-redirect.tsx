import { type ReactNode, useEffect } from 'react';
import { assignLocation } from '../lib/browser';

/** Leaves the app for `href` (a page the router does not serve) once rendered. */
export function DocumentRedirect({ href, children }: { href: string; children: ReactNode }) {
  useEffect(() => {
    assignLocation(href);
  }, [href]);
  return children;
}
