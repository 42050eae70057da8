import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { seatFiguresIn, seatHoldersIn } from '@patientsim/domain/groups/seats';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import type { CurrentUser } from '../../../lib/current-user';
import { useOrganisation } from '../api/get-organisation';
import { useOrganisationKeyOwner } from '../api/get-organisation-key-owner';
import { type OrganisationChanges, useUpdateOrganisation } from '../api/update-organisation';
import { KeyOwnerChangeDialog } from './key-owner-change';
import { OrganisationInfoCard } from './organisation-info-card';
import { SeatsCard } from './seats-card';
import { SeatsEditor } from './seats-editor';
import { TwoFactorRequirementCard } from './two-factor-requirement-card';

/**
 * One organisation's info and seats cards, as the key owner's org profile and the access area's
 * organisation details both show them. What the viewer may change follows the permission table
 * and the key ownership read with the organisation: the key owner renames it and hands the key
 * on; the provider's staff (`org:configure`) also see and set seats, product type, flags and
 * status (spec section 6). Admins and the provider's staff set which roles must use a second
 * factor (`org:two-factor:require`, decision 0066).
 */
export function OrganisationOverview({
  orgId,
  viewer,
  onKeyOwnerChanged,
  children,
}: {
  orgId: string;
  viewer: CurrentUser;
  /** After a key owner change was saved (the change dialog closes in any case). */
  onKeyOwnerChanged?: () => void;
  /** Shown below the cards once the organisation is read. */
  children?: ReactNode;
}) {
  const organisation = useOrganisation(orgId);
  const keyOwner = useOrganisationKeyOwner(orgId);
  const update = useUpdateOrganisation();
  const [isChangingKeyOwner, setIsChangingKeyOwner] = useState(false);
  const metadata = organisation.data ? parseGroupMetadata(organisation.data) : null;
  // The seat figures the server enforces (decision 0035); an organisation's reads always carry them.
  const figures = metadata ? seatFiguresIn(metadata) : null;
  const isKeyOwner = metadata?.ownerId === viewer.id;
  const canConfigure = hasPermission(viewer.role, 'org:configure');
  // A change to an organisation the viewer belongs to changes their claims: the session is renewed.
  const renewsSession = viewer.organisations.some((org) => org.id === orgId);
  const change = (changes: OrganisationChanges) => update.mutateAsync({ orgId, changes, renewsSession });
  const owner = keyOwner.data;
  const ownerName = owner ? [owner.given_name, owner.family_name].filter(Boolean).join(' ') || (owner.email ?? null) : null;
  const keyOwnerName = ownerName && isKeyOwner ? `${ownerName} (you)` : ownerName;

  return (
    <>
      {organisation.isError ? (
        <Alert severity="error">An error occurred: {errorMessage(organisation.error, 'Unknown error')}</Alert>
      ) : organisation.isPending || !metadata ? (
        <Box sx={{ display: 'grid', gap: 2 }} aria-busy="true" aria-label="Loading the organization">
          <Skeleton variant="rounded" height={canConfigure ? 220 : 180} />
          <Skeleton variant="rounded" height={160} />
        </Box>
      ) : (
        <>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              // The provider's settings make the info card the larger one.
              gridTemplateColumns: { xs: '1fr', md: canConfigure ? '3fr 2fr' : '1fr 1fr' },
              alignItems: 'start',
            }}
          >
            <OrganisationInfoCard
              name={organisation.data.name}
              metadata={metadata}
              keyOwnerName={keyOwnerName}
              canRename={isKeyOwner || hasPermission(viewer.role, 'org:update')}
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
          {hasPermission(viewer.role, 'org:two-factor:require') ? (
            <Box sx={{ mt: 2 }}>
              <TwoFactorRequirementCard orgId={orgId} />
            </Box>
          ) : null}
          {children}
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
            update.mutate(
              { orgId, changes: { ownerId }, renewsSession },
              {
                onSuccess: () => {
                  setIsChangingKeyOwner(false);
                  onKeyOwnerChanged?.();
                },
              },
            )
          }
        />
      ) : null}
    </>
  );
}
