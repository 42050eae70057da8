import {
  CASE_ENVIRONMENT_NAMES,
  CASE_MEDIA_MAX_BYTES,
  CASE_PEER_CODE_HEADER,
  CASE_PEER_REQUESTED_BY_HEADER,
  CASE_TOOL_SEARCH_LIMIT,
  type CaseEnvironmentName,
  type CaseEnvironmentStatus,
  type FoundCase,
  type FoundOrganisation,
  type MediaDigest,
  FoundCasesSchema,
  FoundOrganisationsSchema,
  PeerMediaDigestsSchema,
  PeerMediaSchema,
  type PeerMedia,
} from '@patientsim/domain/cases/case-copy.schemas';
import { CASE_DOCUMENT_MAX_CHARS, CaseDocumentSchema } from '@patientsim/domain/cases/case.schemas';
import type { Env } from '../../config/env.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import * as cases from '../cases/cases.service.js';
import { peerMediaDigests, peerReadMedia, peerRemoveMedia, peerStoreMedia } from './peer-media.service.js';

/** What the Cases tool does in one environment: this deployment in process, or a peer over HTTP. */
export type CaseEnvironment = {
  name: CaseEnvironmentName;
  dump: (id: string) => Promise<Record<string, unknown>>;
  restore: (dump: Record<string, unknown>, ownerOrg: string) => Promise<string>;
  fetch: (id: string) => Promise<Record<string, unknown>>;
  remove: (ids: readonly string[]) => Promise<number>;
  searchCases: (term: string) => Promise<FoundCase[]>;
  searchOrganisations: (term: string) => Promise<FoundOrganisation[]>;
  /** A media file a case shows, or null when this environment has none of that id. */
  readMedia: (id: string) => Promise<PeerMedia | null>;
  /** Stores a media file under its id unless one exists; true when this call created it. */
  storeMedia: (file: PeerMedia) => Promise<boolean>;
  mediaDigests: (ids: readonly string[]) => Promise<Record<string, MediaDigest>>;
  /** Removes received media files no case references (a failed copy's clean-up). */
  removeMedia: (ids: readonly string[]) => Promise<number>;
};

/** A call to an environment that failed; `message` is the server's error or 'unknown error'. */
export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}

/** How long one call to a peer may take. */
const PEER_TIMEOUT_MS = 20_000;
/** The largest answer read from a peer (a case document and its envelope). */
const PEER_ANSWER_MAX_BYTES = CASE_DOCUMENT_MAX_CHARS * 4 + 64 * 1024;
/** The largest media file answer read from a peer (the bytes in base64 and their envelope). */
const PEER_MEDIA_ANSWER_MAX_BYTES = Math.ceil(CASE_MEDIA_MAX_BYTES / 3) * 4 + 64 * 1024;

/** Who runs the tool, for the environments' audit trails. */
export type ToolCaller = { db: Database; actorId: string; email: string; ip: string | null };

/**
 * Every environment of the spec, in its order (dev, stable, staging, app), names only: which one is
 * this deployment, and which ones it can reach (decisions 0027 and 0041). Never URLs or codes.
 */
export function environmentStatuses(env: Env): CaseEnvironmentStatus[] {
  return CASE_ENVIRONMENT_NAMES.map((name) => ({
    name,
    current: name === env.CASE_ENVIRONMENT_NAME,
    configured: name === env.CASE_ENVIRONMENT_NAME || env.CASE_ENVIRONMENTS[name] !== undefined,
  }));
}

/** The environment of that name, or null when this deployment does not know it. */
export function openEnvironment(env: Env, name: CaseEnvironmentName, caller: ToolCaller): CaseEnvironment | null {
  if (name === env.CASE_ENVIRONMENT_NAME) return localEnvironment(name, caller, env.CASE_ENVIRONMENT_NAME);
  const peer = env.CASE_ENVIRONMENTS[name];
  if (!peer) return null;
  return remoteEnvironment(name, peer, caller, env.CASE_ENVIRONMENT_NAME);
}

function localEnvironment(name: CaseEnvironmentName, caller: ToolCaller, self: CaseEnvironmentName): CaseEnvironment {
  const peer: cases.PeerCaller = { db: caller.db, ip: caller.ip, requestedBy: caller.email, from: self };
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new EnvironmentError(error instanceof Error && error.message ? error.message : 'unknown error');
    }
  };
  return {
    name,
    dump: (id) =>
      guard(async () => {
        const [found] = await cases.peerDumpCases(peer, [id]);
        if (!found) throw new Error('Case not found.');
        return found.document;
      }),
    restore: (dump, ownerOrg) =>
      guard(() => {
        // The same schema the peer endpoint validates a restore with.
        const parsed = CaseDocumentSchema.safeParse(dump);
        if (!parsed.success) {
          const [issue] = parsed.error.issues;
          throw new Error(issue ? `dump.${issue.path.join('.')}: ${issue.message}` : 'Invalid case document');
        }
        return cases.peerRestoreCase(peer, parsed.data, ownerOrg);
      }),
    fetch: (id) => guard(() => cases.peerCaseDocument(peer, id)),
    remove: (ids) => guard(() => cases.peerRemoveCases(peer, ids)),
    searchCases: (term) => guard(() => cases.peerSearchCases(peer, term, CASE_TOOL_SEARCH_LIMIT)),
    searchOrganisations: (term) => guard(() => cases.peerSearchOrganisations(peer, term, CASE_TOOL_SEARCH_LIMIT)),
    readMedia: (id) =>
      guard(async () => {
        try {
          return await peerReadMedia(peer, id);
        } catch (error) {
          if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
          throw error;
        }
      }),
    storeMedia: (file) => guard(() => peerStoreMedia(peer, file)),
    mediaDigests: (ids) => guard(() => peerMediaDigests(peer, ids)),
    removeMedia: (ids) => guard(() => peerRemoveMedia(peer, ids)),
  };
}

function remoteEnvironment(
  name: CaseEnvironmentName,
  peer: { url: string; accessCode: string },
  caller: ToolCaller,
  self: CaseEnvironmentName,
): CaseEnvironment {
  const base = peer.url.replace(/\/+$/, '');
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    { maxBytes = PEER_ANSWER_MAX_BYTES, notFound }: { maxBytes?: number; notFound?: () => Record<string, unknown> } = {},
  ): Promise<Record<string, unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          [CASE_PEER_CODE_HEADER]: peer.accessCode,
          [CASE_PEER_REQUESTED_BY_HEADER]: `${caller.email} (${self})`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(PEER_TIMEOUT_MS),
      });
    } catch {
      throw new EnvironmentError('unknown error');
    }
    let text: string | null;
    try {
      text = await readBounded(response, maxBytes);
    } catch {
      throw new EnvironmentError('unknown error');
    }
    let parsed: unknown;
    try {
      parsed = text === null ? null : JSON.parse(text);
    } catch {
      parsed = null;
    }
    const json =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    if (response.status === 404 && notFound) return notFound();
    if (!response.ok) {
      const message = json && typeof json.message === 'string' && json.message ? json.message.slice(0, 500) : 'unknown error';
      throw new EnvironmentError(message);
    }
    if (!json) throw new EnvironmentError('unknown error');
    return json;
  };
  return {
    name,
    dump: async (id) => {
      const answer = await call('POST', '/api/cases/peer/dump', { ids: [id] });
      const found = Array.isArray(answer.cases) ? (answer.cases as Array<{ id?: unknown; document?: unknown }>) : [];
      const document = found.find((item) => item.id === id)?.document;
      if (!document || typeof document !== 'object') throw new EnvironmentError('Case not found.');
      return document as Record<string, unknown>;
    },
    restore: async (dump, ownerOrg) => {
      const answer = await call('POST', '/api/cases/peer/restore', { dump, ownerOrg });
      if (typeof answer.id !== 'string') throw new EnvironmentError('unknown error');
      return answer.id;
    },
    fetch: (id) => call('GET', `/api/cases/peer/${encodeURIComponent(id)}`),
    remove: async (ids) => {
      const answer = await call('POST', '/api/cases/peer/remove', { ids });
      return typeof answer.removed === 'number' ? answer.removed : 0;
    },
    searchCases: async (term) => {
      const answer = await call('GET', `/api/cases/peer/search/cases?${new URLSearchParams({ q: term }).toString()}`);
      const parsed = FoundCasesSchema.safeParse(answer);
      if (!parsed.success) throw new EnvironmentError('unknown error');
      return parsed.data.cases;
    },
    searchOrganisations: async (term) => {
      const answer = await call('GET', `/api/cases/peer/search/organisations?${new URLSearchParams({ q: term }).toString()}`);
      const parsed = FoundOrganisationsSchema.safeParse(answer);
      if (!parsed.success) throw new EnvironmentError('unknown error');
      return parsed.data.organisations;
    },
    readMedia: async (id) => {
      const answer = await call('GET', `/api/cases/peer/media/${encodeURIComponent(id)}`, undefined, {
        maxBytes: PEER_MEDIA_ANSWER_MAX_BYTES,
        notFound: () => ({ missing: true }),
      });
      if (answer.missing === true) return null;
      const parsed = PeerMediaSchema.safeParse(answer);
      // What this deployment would refuse to store is refused as it arrives (a kind it does not carry).
      if (!parsed.success || parsed.data.id !== id) throw new EnvironmentError(`Media file ${id} cannot be copied.`);
      return parsed.data;
    },
    storeMedia: async (file) => {
      const answer = await call('POST', '/api/cases/peer/media', file);
      return answer.created === true;
    },
    mediaDigests: async (ids) => {
      const answer = await call('POST', '/api/cases/peer/media/digests', { ids });
      const parsed = PeerMediaDigestsSchema.safeParse(answer);
      if (!parsed.success) throw new EnvironmentError('unknown error');
      return Object.fromEntries(ids.map((id) => [id, parsed.data.media[id] ?? null]));
    },
    removeMedia: async (ids) => {
      const answer = await call('POST', '/api/cases/peer/media/remove', { ids });
      return typeof answer.removed === 'number' ? answer.removed : 0;
    },
  };
}

/** The answer's text, or null past the bound (a peer cannot make this process hold an unbounded body). */
async function readBounded(response: Response, maxBytes: number): Promise<string | null> {
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
