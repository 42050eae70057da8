/**
 * The peer endpoints of the case store (decision 0027): another deployment's Cases tool, no user
 * of this one.
 */
import type { CaseDocumentInput } from '@patientsim/domain/cases/case.schemas';
import type { Database } from '../../db/client.js';
import { audit, countedName } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { buildCaseAccess } from './case-access.js';
import { insertDocument, portableDocument, withoutServerFields } from './case-documents.js';
import * as repo from './cases.repository.js';

/** Who asked a peer call, as the calling deployment states it (kept in the audit trail, never trusted for access). */
export type PeerCaller = { db: Database; ip?: string | null; requestedBy: string | null; from: string | null };

/** The portable documents of the named cases that exist, in the order asked. */
export async function peerDumpCases(
  caller: PeerCaller,
  ids: readonly string[],
): Promise<Array<{ id: string; document: Record<string, unknown> }>> {
  const unique = [...new Set(ids)];
  const rows = await repo.findStoredCases(caller.db, unique);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = unique.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ id, document: portableDocument(row.document) }] : [];
  });
  await audit(caller.db, {
    actorId: null,
    action: 'case.peer-dump',
    targetType: 'case',
    targetName: countedName(found.length, 'case'),
    ipAddress: caller.ip ?? null,
    details: { ids: unique, found: found.length, requestedBy: caller.requestedBy, from: caller.from },
  });
  return found;
}

/** The portable document of one case, or NOT_FOUND. */
export async function peerCaseDocument(caller: PeerCaller, id: string): Promise<Record<string, unknown>> {
  const [row] = await repo.findStoredCases(caller.db, [id]);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return portableDocument(row.document);
}

/**
 * A new case in `ownerOrg` from a dump. No user of this deployment asked, so the case has no
 * owner: it belongs to the organisation (its admins reach it through the organisation's groups).
 */
export async function peerRestoreCase(caller: PeerCaller, dump: CaseDocumentInput, ownerOrg: string): Promise<string> {
  const org = await repo.findOrganisation(caller.db, ownerOrg);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found.' });
  const id = newId();
  const createdAt = dump.createdAt ? new Date(dump.createdAt) : new Date();
  const access = buildCaseAccess({ ownerId: null, ownerOrgId: ownerOrg });
  const document = {
    ...withoutServerFields(dump),
    createdAt: dump.createdAt ?? createdAt.toISOString(),
    shares: [],
    timed_access: { users: [], groups: [] },
  };
  await caller.db.transaction(async (tx) => {
    await insertDocument(tx, id, document, access, createdAt);
    await audit(tx, {
      actorId: null,
      action: 'case.restore',
      targetType: 'case',
      targetId: id,
      orgId: ownerOrg,
      ipAddress: caller.ip ?? null,
      details: { name: dump.name, peer: true, requestedBy: caller.requestedBy, from: caller.from },
    });
  });
  return id;
}

/** Removes the named cases (a failed copy's clean-up); answers how many went. */
export async function peerRemoveCases(caller: PeerCaller, ids: readonly string[]): Promise<number> {
  const unique = [...new Set(ids)];
  return caller.db.transaction(async (tx) => {
    const removed = await repo.deleteCases(tx, unique);
    await audit(tx, {
      actorId: null,
      action: 'case.bulk-remove',
      targetType: 'case',
      targetName: countedName(removed, 'case'),
      ipAddress: caller.ip ?? null,
      details: { ids: unique, removed, peer: true, requestedBy: caller.requestedBy, from: caller.from },
    });
    return removed;
  });
}

/** Cases by name (or exact id) for another deployment's Cases tool, across every organisation. */
export function peerSearchCases(caller: PeerCaller, term: string, limit: number) {
  return repo.searchCasesByName(caller.db, term, limit);
}

/** Organisations by name for another deployment's Cases tool (the target of a copy). */
export function peerSearchOrganisations(caller: PeerCaller, term: string, limit: number) {
  return repo.searchOrganisationsByName(caller.db, term, limit);
}
