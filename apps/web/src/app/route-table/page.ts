import type { ComponentType } from 'react';
import { type LoaderFunction, type LoaderFunctionArgs, type RouteObject, redirect } from 'react-router';
import type { RouteAccess } from '../route-access';

/** What every route declares: who may open it (read by the guard and by tests). */
export type RouteHandle = { access: RouteAccess };

/** The guards (and the session code they need), loaded with the first page that is not public. */
const loadGuards = () => import('../guards');

/** What starts a page's API reads, loaded with the guards. */
const loadReads = () => import('../route-reads');

type GuardsModule = Awaited<ReturnType<typeof loadGuards>>;
type ReadsModule = Awaited<ReturnType<typeof loadReads>>;

/** The loaders of `guards.ts` that decide more than access (the org entry, the verify screen...). */
export type GuardLoaderName = {
  [Name in keyof GuardsModule]: GuardsModule[Name] extends (args: LoaderFunctionArgs) => Promise<Response | null> ? Name : never;
}[keyof GuardsModule];

/** The functions of `route-reads.ts` that start a page's reads. */
export type PageReadsName = {
  [Name in keyof ReadsModule]: ReadsModule[Name] extends () => void ? Name : never;
}[keyof ReadsModule];

/**
 * A loader that runs `check` (a guard of `guards.ts`, imported when a route first needs it) and,
 * once it lets the user in, starts the page's API reads (`reads`). React Router loads the page's
 * chunk (its `lazy`) meanwhile, so that the answers are on their way before the page's code has
 * arrived; the page reads them through the same query keys. The loader does not wait for the reads'
 * module: should it fail to load, the page reads for itself.
 */
function guardedLoader(
  check: (guards: GuardsModule, args: LoaderFunctionArgs) => Promise<Response | null>,
  reads: PageReadsName | undefined,
): LoaderFunction {
  return async (args) => {
    const pageReads = reads ? loadReads() : null;
    const denied = await check(await loadGuards(), args);
    if (reads && pageReads) {
      pageReads.then((module) => (denied ? undefined : module[reads]())).catch(() => undefined);
    }
    return denied;
  };
}

/** A loader of `guards.ts` by name, then the page's reads (`guardedLoader`). */
export function guardLoader(name: GuardLoaderName, reads?: PageReadsName): LoaderFunction {
  return guardedLoader((guards, args) => guards[name](args), reads);
}

/**
 * The loader enforcing `access`, then starting the page's reads (none for a public route: nothing
 * to enforce), and the handle declaring it.
 */
export function guarded(access: RouteAccess, reads?: PageReadsName): { loader?: LoaderFunction; handle: RouteHandle } {
  if (access === 'public') return { handle: { access } };
  return { loader: guardedLoader((guards, args) => guards.guard(access)(args), reads), handle: { access } };
}

/** A page module's loader, typed so that `exportName` must name one of its components. */
type PageModuleLoader<Name extends string> = () => Promise<Record<NoInfer<Name>, ComponentType>>;

type PageOptions = {
  /** Route id, for the routes the spec or the code names (`login`, `profile`, `group-details`...). */
  id?: string;
  /** A loader that decides more than `access`; it runs the guard of `access` itself first. */
  loader?: LoaderFunction;
  /** The reads the page starts once the guard lets the user in (`guarded`). */
  reads?: PageReadsName;
  children?: RouteObject[];
};

/** A route's `lazy`: the named component of a module imported on the route's first visit. */
export function lazyComponent<Name extends string>(load: PageModuleLoader<Name>, exportName: Name) {
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
  { id, loader, reads, children }: PageOptions = {},
): RouteObject {
  return {
    ...(id ? { id } : {}),
    path,
    ...guarded(access, reads),
    ...(loader ? { loader } : {}),
    lazy: lazyComponent(load, exportName),
    ...(children ? { children } : {}),
  };
}

/**
 * A page that is part of the first load rather than a chunk of its own: only for the page most
 * visits open first (sign-in), whose code the other public pages share anyway.
 */
export function firstLoadPage(
  path: string | { index: true },
  access: RouteAccess,
  Component: ComponentType,
  { id }: Pick<PageOptions, 'id'> = {},
): RouteObject {
  return {
    ...(id ? { id } : {}),
    ...(typeof path === 'string' ? { path } : { index: true }),
    ...guarded(access),
    Component,
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
