import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { OrganisationProfileFormSchema, type OrganisationProfileForm } from '@patientsim/domain/groups/group-management.schemas';
import type { GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { GROUP_ABOUT_MAX } from '@patientsim/domain/common/constants';
import { PRODUCT_TYPES, PRODUCT_TYPE_LABEL, type ProductType } from '@patientsim/domain/product/product-types';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import type { OrganisationChanges } from '../api/update-organisation';

export const STATUS_CHANGE_CONFIRM = 'Inactive organizations have no access to cases.';

/** The organisation flags only the provider sets (spec sections 3 and 6), with their labels. */
export const ORGANISATION_FLAGS = [
  { key: 'dev', label: 'Internal org (dev)' },
  { key: 'testing', label: 'Testing' },
  { key: 'debug', label: 'Debug' },
  { key: 'ai', label: 'AI dialogue' },
] as const;

type Props = {
  name: string;
  metadata: GroupMetadata;
  keyOwnerName: string | null;
  canRename: boolean;
  /** Seats, product type and status: the provider's staff only (the server refuses anyone else). */
  canConfigure: boolean;
  canChangeKeyOwner: boolean;
  isPending: boolean;
  error: unknown;
  onChange: (changes: OrganisationChanges) => Promise<unknown>;
  onChangeKeyOwner: () => void;
};

type Pending = { kind: 'status' } | { kind: 'productType'; value: ProductType } | null;

/** The organisation info card of the org profile: name, description, product type, status and key owner. */
export function OrganisationInfoCard({
  name,
  metadata,
  keyOwnerName,
  canRename,
  canConfigure,
  canChangeKeyOwner,
  isPending,
  error,
  onChange,
  onChangeKeyOwner,
}: Props) {
  const [confirming, setConfirming] = useState<Pending>(null);
  const about = metadata.about ?? '';
  const { control, handleSubmit, formState } = useForm<OrganisationProfileForm, unknown, { name: string; about: string }>({
    resolver: zodResolver(OrganisationProfileFormSchema),
    values: { name, about },
  });
  const status = metadata.inactive ? 'Inactive' : 'Active';
  return (
    <Card variant="outlined" component="section" aria-labelledby="org-info-title">
      <CardContent>
        <Typography id="org-info-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
          Organization
        </Typography>
        {error && !confirming ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorMessage(error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
        {canRename ? (
          <Box
            component="form"
            noValidate
            onSubmit={handleSubmit(async (values) => {
              // Only what changed is sent: each change is its own line in the audit trail.
              const changes: OrganisationChanges = {
                ...(values.name !== name ? { name: values.name } : {}),
                ...(values.about !== about ? { about: values.about } : {}),
              };
              if (Object.keys(changes).length > 0) await onChange(changes).catch(() => undefined);
            })}
            sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'stretch', mb: 2 }}
          >
            <FormTextField control={control} name="name" label="Name" required size="small" margin="none" disabled={isPending} />
            <FormTextField
              control={control}
              name="about"
              label="Description"
              size="small"
              margin="none"
              slotProps={{ input: { multiline: true, minRows: 2 } }}
              disabled={isPending}
              hint={`Optional, at most ${GROUP_ABOUT_MAX} characters`}
            />
            <Box>
              <Button type="submit" variant="outlined" disabled={!formState.isDirty || isPending}>
                Save profile
              </Button>
            </Box>
          </Box>
        ) : (
          <Box sx={{ mb: 2 }}>
            <Typography>
              Name: <strong>{name}</strong>
            </Typography>
            {about ? <Typography sx={{ mt: 1, whiteSpace: 'pre-line' }}>{about}</Typography> : null}
          </Box>
        )}
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0, alignItems: 'center' }}
        >
          <Typography component="dt">Product type</Typography>
          <Box component="dd" sx={{ m: 0 }}>
            {canConfigure ? (
              <TextField
                select
                size="small"
                label="Product type"
                value={metadata.productType}
                disabled={isPending}
                onChange={(event) => setConfirming({ kind: 'productType', value: event.target.value as ProductType })}
              >
                {PRODUCT_TYPES.map((type) => (
                  <MenuItem key={type} value={type}>
                    {PRODUCT_TYPE_LABEL[type]}
                  </MenuItem>
                ))}
              </TextField>
            ) : (
              PRODUCT_TYPE_LABEL[metadata.productType]
            )}
          </Box>
          {canConfigure ? (
            <>
              <Typography component="dt" id="org-flags-label">
                Flags
              </Typography>
              <Box component="dd" sx={{ m: 0 }}>
                <FormGroup row aria-labelledby="org-flags-label">
                  {ORGANISATION_FLAGS.map((flag) => (
                    <FormControlLabel
                      key={flag.key}
                      label={flag.label}
                      disabled={isPending}
                      control={
                        <Checkbox
                          checked={metadata[flag.key]}
                          onChange={(event) => void onChange({ [flag.key]: event.target.checked }).catch(() => undefined)}
                        />
                      }
                    />
                  ))}
                </FormGroup>
              </Box>
            </>
          ) : null}
          <Typography component="dt">Status</Typography>
          <Box component="dd" sx={{ m: 0, display: 'flex', gap: 1, alignItems: 'center' }}>
            <Chip label={status} color={metadata.inactive ? 'default' : 'success'} variant="outlined" size="small" />
            {canConfigure ? (
              <Button size="small" onClick={() => setConfirming({ kind: 'status' })} disabled={isPending}>
                Change Status
              </Button>
            ) : null}
          </Box>
          <Typography component="dt">Key owner</Typography>
          <Box component="dd" sx={{ m: 0, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {keyOwnerName ?? '—'}
            {canChangeKeyOwner ? (
              <Button size="small" onClick={onChangeKeyOwner} disabled={isPending}>
                Change Group Admin
              </Button>
            ) : null}
          </Box>
        </Box>
      </CardContent>
      <ConfirmDialog
        isOpen={confirming !== null}
        title={confirming?.kind === 'status' ? 'Change Status' : 'Change product type'}
        confirmLabel={confirming?.kind === 'status' ? (metadata.inactive ? 'Activate' : 'Deactivate') : 'Change'}
        isPending={isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          const changes: OrganisationChanges =
            confirming.kind === 'status' ? { inactive: !metadata.inactive } : { productType: confirming.value };
          void onChange(changes)
            .then(() => setConfirming(null))
            .catch(() => undefined);
        }}
      >
        {confirming?.kind === 'status'
          ? `Make ${name} ${metadata.inactive ? 'Active' : 'Inactive'}? ${STATUS_CHANGE_CONFIRM}`
          : confirming?.kind === 'productType'
            ? `Change the product type of ${name} to ${PRODUCT_TYPE_LABEL[confirming.value]}? Every member's session is renewed with it.`
            : null}
        {error && confirming ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
      </ConfirmDialog>
    </Card>
  );
}
