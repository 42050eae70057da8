import type { RouteObject } from 'react-router';
import { guardLoader, page } from './page';

/**
 * The scenario library (decision 1), inside the signed-in shell. Its loader is the authoring-path
 * guard of spec section 2: a usable stored login result, else login with a timestamp query; an
 * unverified address goes to the verify screen. Once in, the library's first page is read while
 * the page's chunk loads.
 */
export const authoringRoutes: RouteObject[] = [
  page('authoring/cases', 'cases:read', () => import('../routes/scenarios'), 'ScenariosRoute', {
    id: 'scenarios',
    loader: guardLoader('authoringLoader', 'startCaseListReads'),
  }),
];
