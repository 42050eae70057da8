import { ScreenHeader } from '../../../components/screen-header';

/** /access/templates. */
export function TemplatesRoute() {
  return <ScreenHeader title="Templates" />;
}
