import type { ComponentType } from 'react';
import { type LoaderFunction, type RouteObject, redirect } from 'react-router';
import { type RouteAccess, guard } from '../guards';

/** What every route declares: who may open it (read by the guard and by tests). */
export type RouteHandle = { access: RouteAccess };

/** The loader enforcing `access`, and the handle declaring it. */
export function guarded(access: RouteAccess): { loader: LoaderFunction; handle: RouteHandle } {
  return { loader: guard(access), handle: { access } };
}

/** A page module's loader, typed so that `exportName` must name one of its components. */
type PageModuleLoader<Name extends string> = () => Promise<Record<NoInfer<Name>, ComponentType>>;

type PageOptions = {
  /** Route id, for the routes the spec or the code names (`login`, `profile`, `group-details`...). */
  id?: string;
  /** A loader that decides more than `access`; it runs the guard of `access` itself first. */
  loader?: LoaderFunction;
  children?: RouteObject[];
};

function lazyComponent<Name extends string>(load: PageModuleLoader<Name>, exportName: Name) {
  return async () => ({ Component: (await load())[exportName] });
}

/**
 * One page of the route table: its path, who may open it, and the export of the module that
 * renders it. The module is imported on first visit, so each page module is its own chunk.
 *
 * @example page('signup', 'public', () => import('../../features/auth/routes/signup'), 'SignupRoute')
 */
export function page<Name extends string>(
  path: string,
  access: RouteAccess,
  load: PageModuleLoader<Name>,
  exportName: Name,
  { id, loader, children }: PageOptions = {},
): RouteObject {
  return {
    ...(id ? { id } : {}),
    path,
    ...guarded(access),
    ...(loader ? { loader } : {}),
    lazy: lazyComponent(load, exportName),
    ...(children ? { children } : {}),
  };
}

/** The page shown at its parent's own path. */
export function indexPage<Name extends string>(access: RouteAccess, load: PageModuleLoader<Name>, exportName: Name): RouteObject {
  return { index: true, ...guarded(access), lazy: lazyComponent(load, exportName) };
}

/**
 * A path that only sends on to `to` (old links, an area's own path). It declares the access of its
 * target, whose guard decides when it loads.
 */
export function redirectRoute(path: string | { index: true }, to: string, access: RouteAccess): RouteObject {
  const loader = () => redirect(to);
  const handle: RouteHandle = { access };
  return typeof path === 'string' ? { path, loader, handle } : { index: true, loader, handle };
}
