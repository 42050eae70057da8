import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { seatFiguresIn, seatHoldersIn } from '@patientsim/domain/groups/seats';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/use-session';
import { useOrganisation } from '../api/get-organisation';
import { useOrganisationKeyOwner } from '../api/get-organisation-key-owner';
import { type OrganisationChanges, useUpdateOrganisation } from '../api/update-organisation';
import { KeyOwnerChangeDialog } from '../components/key-owner-change';
import { OrganisationInfoCard } from '../components/organisation-info-card';
import { SeatsCard } from '../components/seats-card';
import { SeatsEditor } from '../components/seats-editor';

/** /org/profile: the key owner's organisation info and seats cards (no user list). */
export function OrgProfileRoute() {
  const user = useCurrentUser();
  const orgId = user?.activeOrg?.id ?? '';
  const organisation = useOrganisation(orgId);
  const keyOwner = useOrganisationKeyOwner(orgId);
  const update = useUpdateOrganisation();
  const navigate = useNavigate();
  const [isChangingKeyOwner, setIsChangingKeyOwner] = useState(false);
  if (!user) return null;
  const metadata = organisation.data ? parseGroupMetadata(organisation.data) : null;
  // The seat figures the server enforces (decision 0035); an organisation's reads always carry them.
  const figures = metadata ? seatFiguresIn(metadata) : null;
  const isKeyOwner = metadata?.ownerId === user.id;
  const canConfigure = hasPermission(user.role, 'org:configure');
  const change = (changes: OrganisationChanges) => update.mutateAsync({ orgId, changes });
  const owner = keyOwner.data;
  const ownerName = owner ? [owner.given_name, owner.family_name].filter(Boolean).join(' ') || (owner.email ?? null) : null;
  const keyOwnerName = ownerName && isKeyOwner ? `${ownerName} (you)` : ownerName;

  return (
    <>
      <ScreenHeader title="Org. Profile" />
      {organisation.isError ? (
        <Alert severity="error">An error occurred: {errorMessage(organisation.error, 'Unknown error')}</Alert>
      ) : organisation.isPending || !metadata ? (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Skeleton variant="rounded" height={180} />
          <Skeleton variant="rounded" height={160} />
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <OrganisationInfoCard
            name={organisation.data.name}
            metadata={metadata}
            keyOwnerName={keyOwnerName}
            canRename={isKeyOwner || hasPermission(user.role, 'org:update')}
            canConfigure={canConfigure}
            canChangeKeyOwner={isKeyOwner || canConfigure}
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
                canConfigure ? (
                  <SeatsEditor
                    key={metadata.seats}
                    seats={metadata.seats}
                    isPending={update.isPending}
                    onSave={(seats) => void change({ seats }).catch(() => undefined)}
                  />
                ) : undefined
              }
            />
          ) : null}
        </Box>
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
            update.mutate(
              { orgId, changes: { ownerId } },
              // No longer key owner: the org profile is not theirs any more (spec section 2).
              { onSuccess: () => void navigate(paths.orgInvite) },
            )
          }
        />
      ) : null}
    </>
  );
}
