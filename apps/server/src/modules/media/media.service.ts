import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MediaDigest, PeerMedia } from '@patientsim/domain/cases/case-copy.schemas';
import type { Database } from '../../db/client.js';
import { SEED_ASSETS_DIR } from '../../seed/media-assets.js';
import * as repo from './media.repository.js';

/** The folder the shipped media files live in. */
export const MEDIA_ROOT = path.resolve(SEED_ASSETS_DIR);

/** The URL under which `mediaRoutes` serves a media row: same origin, so the browser plays it directly. */
export function mediaUrl(mediaId: string): string {
  return `/media/${encodeURIComponent(mediaId)}`;
}

const MEDIA_URL = /^\/media\/([A-Za-z0-9_-]{1,64})$/;

/**
 * The ids of the media files a case document shows: every string that is a same-origin media URL
 * (`/media/{id}`), wherever it sits (avatar and location pictures today, other pictures later).
 */
export function mediaIdsOf(document: unknown): string[] {
  const ids = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      const id = MEDIA_URL.exec(value)?.[1];
      if (id) ids.add(id);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(document);
  return [...ids].sort();
}

/** Where a shipped file is, or null when its path would leave the media folder. */
export function shippedFilePath(row: repo.MediaRow): string | null {
  if (row.path === null) return null;
  const file = path.resolve(MEDIA_ROOT, row.path);
  return file.startsWith(MEDIA_ROOT + path.sep) ? file : null;
}

/** What `/media/{id}` serves: received bytes, or a shipped file (relative to MEDIA_ROOT); null when none. */
export async function mediaToServe(
  db: Database,
  id: string,
): Promise<{ contentType: string; content: Buffer } | { contentType: string; file: string } | null> {
  const row = await repo.findMedia(db, id);
  if (!row) return null;
  if (row.content) return { contentType: row.contentType, content: row.content };
  const file = shippedFilePath(row);
  return file ? { contentType: row.contentType, file: path.relative(MEDIA_ROOT, file) } : null;
}

export type MediaFile = { id: string; fileName: string; contentType: string; bytes: Buffer };

async function bytesOf(row: repo.MediaRow): Promise<Buffer | null> {
  if (row.content) return row.content;
  const file = shippedFilePath(row);
  if (!file) return null;
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

/** A media file with its bytes, or null when there is none of that id (or its file is gone). */
export async function readMedia(db: Database, id: string): Promise<MediaFile | null> {
  const row = await repo.findMedia(db, id);
  const bytes = row ? await bytesOf(row) : null;
  if (!row || !bytes) return null;
  return { id: row.id, fileName: row.fileName, contentType: row.contentType, bytes };
}

export function digestOf(file: { contentType: string; bytes: Buffer }): NonNullable<MediaDigest> {
  return {
    contentType: file.contentType,
    size: file.bytes.byteLength,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
  };
}

/** Type, size and SHA-256 of each named file, null for those this deployment cannot serve. */
export async function mediaDigests(db: Database, ids: readonly string[]): Promise<Record<string, MediaDigest>> {
  const rows = await repo.findMediaByIds(db, [...new Set(ids)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const result: Record<string, MediaDigest> = {};
  for (const id of ids) {
    const row = byId.get(id);
    const bytes = row ? await bytesOf(row) : null;
    result[id] = row && bytes ? digestOf({ contentType: row.contentType, bytes }) : null;
  }
  return result;
}

/**
 * Stores a file another deployment sent with a copied case, under the id it has there, so the
 * case's `/media/{id}` URLs work here unchanged. A file of that id that exists is kept as it is
 * (the comparison then reports it if its bytes differ); answers whether this call created it.
 */
export function storeReceivedMedia(db: Database, file: PeerMedia): Promise<boolean> {
  return repo.insertReceivedMedia(db, {
    id: file.id,
    fileName: file.fileName,
    contentType: file.contentType,
    content: Buffer.from(file.content, 'base64'),
  });
}

/** Removes received files a failed copy created, unless a case references them by now. */
export function removeReceivedMedia(db: Database, ids: readonly string[]): Promise<number> {
  return repo.deleteUnreferencedReceivedMedia(db, [...new Set(ids)]);
}
