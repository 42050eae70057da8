import { ScreenHeader } from '../../../components/screen-header';

/** /access/cases. */
export function AccessCasesRoute() {
  return <ScreenHeader title="Cases" />;
}

/** /access/skeleton: Skeleton Key (View As User). */
export function SkeletonKeyRoute() {
  return <ScreenHeader title="View As User" />;
}

/** /access/templates. */
export function TemplatesRoute() {
  return <ScreenHeader title="Templates" />;
}

/** /access/notifications. */
export function AccessNotificationsRoute() {
  return <ScreenHeader title="Notifications" />;
}
