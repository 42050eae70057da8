import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useSupportContact } from '../api/get-support-contact';

/** A plain line saying how to reach the provider: a mailto of the deployment's support address. */
export function ProviderContact() {
  const contact = useSupportContact();
  return (
    <Typography variant="body1" aria-busy={contact.isPending}>
      To bring your organization to PatientSim, or for help with your account, write to the provider at{' '}
      {contact.data ? <Link href={`mailto:${contact.data.email}`}>{contact.data.email}</Link> : 'their support address'}.
    </Typography>
  );
}
