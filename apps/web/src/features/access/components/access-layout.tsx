import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Link, useOutlet } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { SectionMenu } from '../../../components/section-menu';
import { SignedInAs } from '../../../components/signed-in-as';
import { paths } from '../../../config/paths';

export const ACCESS_MENU = [
  { label: 'Organizations', to: paths.accessOrganizations },
  { label: 'Users', to: paths.accessUsers },
  { label: 'Cases', to: paths.accessCases },
  { label: 'Skeleton Key', to: paths.accessSkeleton },
  { label: 'Templates', to: paths.accessTemplates },
  { label: 'Notifications', to: paths.accessNotifications },
  { label: 'Audit', to: paths.accessAudit },
  { label: 'Applications', to: paths.accessApplications },
] as const;

/** /access: the left menu of the six tools of spec section 2 and the audit trail; inside a tool the menu becomes a Go Back button (spec section 2). */
export function AccessLayout() {
  const outlet = useOutlet();
  if (!outlet) {
    return (
      <>
        <PageTitle title="Access">Access</PageTitle>
        <SignedInAs />
        <Box sx={{ maxWidth: 360 }}>
          <SectionMenu label="Access" items={ACCESS_MENU} />
        </Box>
      </>
    );
  }
  return (
    <>
      <Button component={Link} to={paths.access} startIcon={<ArrowBack />} sx={{ mb: 2 }}>
        Go Back
      </Button>
      {outlet}
    </>
  );
}
