/**
 * A case's stored document: what a client never sets through it, and the writes that store it with
 * the columns derived from it (case-access.ts).
 */
import type { Database } from '../../db/client.js';
import type { CaseAccess } from '../../db/schema/cases.js';
import { deriveCaseColumns } from './case-access.js';
import * as repo from './cases.repository.js';

/** Stores a document and the columns derived from it. */
export async function writeDocument(db: Database, id: string, document: Record<string, unknown>, access: CaseAccess) {
  const appLabOrgIds = (await repo.findAppLabOrganisations(db)).map((org) => org.id);
  const derived = deriveCaseColumns(document, access, appLabOrgIds);
  await repo.updateCase(db, id, {
    ...derived,
    access,
    document: { ...document, id, access, published: derived.published, applab: derived.applab },
  });
}

/** Fields a client never sets through a document: the access lists and what the server derives or keeps per user. */
const SERVER_FIELDS = [
  'id',
  'access',
  'shares',
  'timed_access',
  'published',
  'applab',
  'isFavorite',
  'lastPlayed',
  'lastAccessed',
  'author',
] as const;

export function withoutServerFields(document: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...document };
  for (const key of SERVER_FIELDS) delete copy[key];
  return copy;
}

export async function insertDocument(
  db: Database,
  id: string,
  document: Record<string, unknown>,
  access: CaseAccess,
  createdAt: Date,
) {
  const appLabOrgIds = (await repo.findAppLabOrganisations(db)).map((org) => org.id);
  const derived = deriveCaseColumns(document, access, appLabOrgIds);
  await repo.insertCase(db, {
    id,
    ...derived,
    access,
    document: { ...document, id, access, published: derived.published, applab: derived.applab },
    createdAt,
    updatedAt: createdAt,
  });
}

/** The portable document of a case: its content, without ids, access, shares or what is derived from them. */
export function portableDocument(document: Record<string, unknown>): Record<string, unknown> {
  return withoutServerFields(document);
}
