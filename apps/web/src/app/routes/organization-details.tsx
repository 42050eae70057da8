import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { seatFiguresIn, seatHoldersIn } from '@patientsim/domain/groups/seats';
import { useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { ScreenHeader } from '../../components/screen-header';
import { GroupsPanel } from '../../features/groups/components/groups-panel';
import { useOrganisation } from '../../features/org/api/get-organisation';
import { useOrganisationKeyOwner } from '../../features/org/api/get-organisation-key-owner';
import { type OrganisationChanges, useUpdateOrganisation } from '../../features/org/api/update-organisation';
import { KeyOwnerChangeDialog } from '../../features/org/components/key-owner-change';
import { OrganisationInfoCard } from '../../features/org/components/organisation-info-card';
import { OrgUsersTable } from '../../features/org/components/org-users-table';
import { SeatsCard } from '../../features/org/components/seats-card';
import { SeatsEditor } from '../../features/org/components/seats-editor';
import { errorMessage } from '../../lib/api-client';
import { useCurrentUser } from '../../lib/use-session';

function noticeOf(state: unknown): string | null {
  return typeof state === 'object' && state !== null && 'notice' in state && typeof state.notice === 'string'
    ? state.notice
    : null;
}

/**
 * /access/organizations/{orgId} (route name organization-details): the provider's view of one
 * organisation: its profile with product type, flags, seats, status and key owner, its members and
 * pending invitations, and its groups.
 */
export function OrganizationDetailsRoute() {
  const { orgId = '' } = useParams();
  const location = useLocation();
  const user = useCurrentUser();
  const organisation = useOrganisation(orgId);
  const keyOwner = useOrganisationKeyOwner(orgId);
  const update = useUpdateOrganisation();
  const [isChangingKeyOwner, setIsChangingKeyOwner] = useState(false);
  if (!user) return null;
  const metadata = organisation.data ? parseGroupMetadata(organisation.data) : null;
  // The seat figures the server enforces (decision 0035); an organisation's reads always carry them.
  const figures = metadata ? seatFiguresIn(metadata) : null;
  // A change to an organisation the signed-in user belongs to changes their claims: the session is renewed.
  const renewsSession = user.organisations.some((org) => org.id === orgId);
  const change = (changes: OrganisationChanges) => update.mutateAsync({ orgId, changes, renewsSession });
  const owner = keyOwner.data;
  const ownerName = owner ? [owner.given_name, owner.family_name].filter(Boolean).join(' ') || (owner.email ?? null) : null;
  const notice = noticeOf(location.state);

  return (
    <>
      <ScreenHeader title="Organization details" />
      {notice ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      ) : null}
      {organisation.isError ? (
        <Alert severity="error">An error occurred: {errorMessage(organisation.error, 'Unknown error')}</Alert>
      ) : organisation.isPending || !metadata ? (
        <Box sx={{ display: 'grid', gap: 2 }} aria-busy="true" aria-label="Loading the organization">
          <Skeleton variant="rounded" height={220} />
          <Skeleton variant="rounded" height={160} />
        </Box>
      ) : (
        <>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, alignItems: 'start' }}>
            <OrganisationInfoCard
              name={organisation.data.name}
              metadata={metadata}
              keyOwnerName={ownerName}
              canRename
              canConfigure
              canChangeKeyOwner
              isPending={update.isPending}
              error={isChangingKeyOwner ? null : update.error}
              onChange={change}
              onChangeKeyOwner={() => {
                update.reset();
                setIsChangingKeyOwner(true);
              }}
            />
            {figures ? (
              <SeatsCard
                figures={figures}
                subscribedMembers={metadata.memberCount - seatHoldersIn(metadata)}
                editor={
                  <SeatsEditor
                    key={metadata.seats}
                    seats={metadata.seats}
                    isPending={update.isPending}
                    onSave={(seats) => void change({ seats }).catch(() => undefined)}
                  />
                }
              />
            ) : null}
          </Box>
          <Box component="section" aria-labelledby="org-members-title" sx={{ mt: 4 }}>
            <Typography id="org-members-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
              Members and pending invitations
            </Typography>
            <OrgUsersTable key={orgId} orgId={orgId} variant="all" actorRole={user.role} />
          </Box>
          <Box component="section" aria-labelledby="org-groups-title" sx={{ mt: 4 }}>
            <Typography id="org-groups-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
              Groups
            </Typography>
            <GroupsPanel user={user} orgId={orgId} />
          </Box>
        </>
      )}
      {isChangingKeyOwner ? (
        <KeyOwnerChangeDialog
          orgId={orgId}
          currentOwnerId={metadata?.ownerId ?? null}
          isPending={update.isPending}
          error={update.error}
          onCancel={() => {
            setIsChangingKeyOwner(false);
            update.reset();
          }}
          onConfirm={(ownerId) =>
            update.mutate({ orgId, changes: { ownerId }, renewsSession }, { onSuccess: () => setIsChangingKeyOwner(false) })
          }
        />
      ) : null}
    </>
  );
}
