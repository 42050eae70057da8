import Typography from '@mui/material/Typography';
import { ScreenHeader } from '../../../components/screen-header';
import { useCurrentUser } from '../../../lib/use-session';
import { AuditTrail } from '../components/audit-trail';

/** /access/audit: every organisation's audit trail (super admins). */
export function AccessAuditRoute() {
  return (
    <>
      <ScreenHeader title="Audit" />
      <AuditTrail organisationId={null} />
    </>
  );
}

/** /org/audit: the audit trail of the admin's active organisation. */
export function OrgAuditRoute() {
  const user = useCurrentUser();
  const organisation = user?.activeOrg ?? null;
  return (
    <>
      <ScreenHeader title="Audit" />
      {organisation ? (
        <>
          <Typography sx={{ mb: 2 }}>Who did what in {organisation.name}.</Typography>
          <AuditTrail organisationId={organisation.id} />
        </>
      ) : (
        <Typography>You are not a member of an organization.</Typography>
      )}
    </>
  );
}
