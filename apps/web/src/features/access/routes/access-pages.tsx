import { ScreenHeader } from '../../../components/screen-header';

/** /access/cases. */
export function AccessCasesRoute() {
  return <ScreenHeader title="Cases" />;
}
