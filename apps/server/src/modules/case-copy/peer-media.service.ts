import type { MediaDigest, PeerMedia } from '@patientsim/domain/cases/case-copy.schemas';
import { CASE_MEDIA_CONTENT_TYPES } from '@patientsim/domain/cases/case-copy.schemas';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { PeerCaller } from '../cases/cases.service.js';
import * as media from '../media/media.service.js';

/**
 * The media files of copied cases as one deployment offers them to another's Cases tool (decision
 * 0041): read one, store one received, digests for the comparison, and the clean-up of a failed copy.
 */

const CARRIED_TYPES: ReadonlySet<string> = new Set(CASE_MEDIA_CONTENT_TYPES);

/** A media file with its bytes in base64, or NOT_FOUND (also for a kind of file a copy does not carry). */
export async function peerReadMedia(caller: PeerCaller, id: string): Promise<PeerMedia> {
  const file = await media.readMedia(caller.db, id);
  if (!file) throw new AppError('NOT_FOUND', { message: `Media file ${id} not found.` });
  if (!CARRIED_TYPES.has(file.contentType)) {
    throw new AppError('NOT_FOUND', { message: `Media file ${id} is a ${file.contentType}, which a copy does not carry.` });
  }
  return {
    id: file.id,
    fileName: file.fileName,
    contentType: file.contentType as PeerMedia['contentType'],
    content: file.bytes.toString('base64'),
  };
}

/** Stores a received file under its id unless one exists; audited when stored. */
export async function peerStoreMedia(caller: PeerCaller, file: PeerMedia): Promise<boolean> {
  const created = await media.storeReceivedMedia(caller.db, file);
  if (created) {
    await audit(caller.db, {
      actorId: null,
      action: 'media.receive',
      targetType: 'media',
      targetId: file.id,
      targetName: file.fileName,
      ipAddress: caller.ip ?? null,
      details: { fileName: file.fileName, contentType: file.contentType, requestedBy: caller.requestedBy, from: caller.from },
    });
  }
  return created;
}

export function peerMediaDigests(caller: PeerCaller, ids: readonly string[]): Promise<Record<string, MediaDigest>> {
  return media.mediaDigests(caller.db, ids);
}

/** Removes received files a failed copy created (those no case references); audited. */
export async function peerRemoveMedia(caller: PeerCaller, ids: readonly string[]): Promise<number> {
  const removed = await media.removeReceivedMedia(caller.db, ids);
  await audit(caller.db, {
    actorId: null,
    action: 'media.bulk-remove',
    targetType: 'media',
    ipAddress: caller.ip ?? null,
    details: { ids: [...new Set(ids)], removed, requestedBy: caller.requestedBy, from: caller.from },
  });
  return removed;
}
