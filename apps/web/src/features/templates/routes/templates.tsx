import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useSearchParams } from 'react-router';
import { ScreenHeader } from '../../../components/screen-header';
import { TEMPLATE_TABS, tabFromSlug } from '../components/template-actions';
import { TemplateLibrary } from '../components/template-library';

const tabId = (slug: string) => `templates-tab-${slug}`;
const panelId = (slug: string) => `templates-panel-${slug}`;

/** /access/templates: the template libraries of the three product types, one tab each (super admins). */
export function TemplatesRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const current = tabFromSlug(searchParams.get('tab'));
  return (
    <>
      <ScreenHeader title="Templates" />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={current.slug}
          onChange={(_, slug: string) => setSearchParams({ tab: slug }, { replace: true })}
          aria-label="Template libraries"
        >
          {TEMPLATE_TABS.map((tab) => (
            <Tab key={tab.slug} value={tab.slug} label={tab.label} id={tabId(tab.slug)} aria-controls={panelId(tab.slug)} />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={panelId(current.slug)} aria-labelledby={tabId(current.slug)}>
        {/* A key per tab: each library keeps its own selection and pending action. */}
        <TemplateLibrary key={current.slug} tab={current} />
      </Box>
    </>
  );
}
