/**
 * Operators' tool: provisions a person through the running server's integration endpoint and
 * prints the single-use choose-password link (decision 15).
 *
 *   INTEGRATION_KEY=… npm run provision -- --email pat@example.org --given-name Pat \
 *     --family-name Lee --org <organisation id> [--role STUDENT] [--url http://localhost:3000]
 */
import { parseArgs } from 'node:util';
import { ProvisionBodySchema } from '@patientsim/domain/account/provisioning.schemas';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    'given-name': { type: 'string' },
    'family-name': { type: 'string' },
    org: { type: 'string' },
    role: { type: 'string', default: 'STUDENT' },
    url: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const usage =
  'Usage: provision --email E --given-name G --family-name F --org ORG_ID [--role STUDENT|USER|ADMIN] [--url SERVER_URL]';
if (values.help) {
  console.info(usage);
  process.exit(0);
}
const key = process.env.INTEGRATION_KEY;
if (!key) {
  console.error('INTEGRATION_KEY must be set to the key the server was started with.');
  process.exit(2);
}
const parsed = ProvisionBodySchema.safeParse({
  email: values.email,
  given_name: values['given-name'],
  family_name: values['family-name'],
  orgId: values.org,
  role: values.role,
});
if (!parsed.success) {
  console.error(`${usage}\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  process.exit(2);
}
const server = (values.url ?? process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
const response = await fetch(`${server}/api/users/integrations/provision`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-integration-key': key },
  body: JSON.stringify(parsed.data),
});
const body = (await response.json()) as { link?: string; expiresAt?: string; message?: string };
if (!response.ok) {
  console.error(`Provisioning failed (${response.status}): ${body.message ?? 'unknown error'}`);
  process.exit(1);
}
console.info(`Choose-password link for ${parsed.data.email} (single use, expires ${body.expiresAt}):\n${body.link}`);
