import { createHash } from 'node:crypto';
import { buildReferenceData, type ReferenceData } from '@patientsim/domain/reference/reference-data';

/** The reference data, built once per process with its entity tag (it changes only with a release). */
export type ReferenceDocument = { data: ReferenceData; etag: string };

export function createReferenceDocument(): ReferenceDocument {
  const data = buildReferenceData();
  const digest = createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 27);
  return { data, etag: `"${digest}"` };
}

/**
 * Whether an If-None-Match header matches the tag (weak comparison, RFC 9110 section 13.1.2):
 * `*`, or any listed tag with or without its W/ prefix.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
