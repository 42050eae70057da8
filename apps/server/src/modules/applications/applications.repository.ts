import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { oauthClient } from '../../db/schema/oauth.js';

const columns = {
  id: oauthClient.id,
  clientId: oauthClient.clientId,
  name: oauthClient.name,
  tokenEndpointAuthMethod: oauthClient.tokenEndpointAuthMethod,
  redirectUris: oauthClient.redirectUris,
  postLogoutRedirectUris: oauthClient.postLogoutRedirectUris,
  createdAt: oauthClient.createdAt,
};

export type ApplicationRow = { [K in keyof typeof columns]: (typeof oauthClient.$inferSelect)[K] };

/** Every registered application, newest first (there are a handful: the platform's own). */
export function findApplications(db: Database): Promise<ApplicationRow[]> {
  return db.select(columns).from(oauthClient).orderBy(desc(oauthClient.createdAt), oauthClient.id);
}

export async function findApplicationByClientId(db: Database, clientId: string): Promise<ApplicationRow | null> {
  const [row] = await db.select(columns).from(oauthClient).where(eq(oauthClient.clientId, clientId));
  return row ?? null;
}

/** Deletes an application; its tokens and consents go with it. The deleted row, or null. */
export async function deleteApplication(db: Database, id: string): Promise<ApplicationRow | null> {
  const [row] = await db.delete(oauthClient).where(eq(oauthClient.id, id)).returning(columns);
  return row ?? null;
}
