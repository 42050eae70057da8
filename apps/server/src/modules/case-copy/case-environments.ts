import {
  CASE_PEER_CODE_HEADER,
  CASE_PEER_REQUESTED_BY_HEADER,
  type CaseEnvironmentName,
} from '@patientsim/domain/cases/case-copy.schemas';
import { CASE_DOCUMENT_MAX_CHARS, CaseDocumentSchema } from '@patientsim/domain/cases/case.schemas';
import type { Env } from '../../config/env.js';
import type { Database } from '../../db/client.js';
import * as cases from '../cases/cases.service.js';

/** What the Cases tool does in one environment: this deployment in process, or a peer over HTTP. */
export type CaseEnvironment = {
  name: CaseEnvironmentName;
  dump: (id: string) => Promise<Record<string, unknown>>;
  restore: (dump: Record<string, unknown>, ownerOrg: string) => Promise<string>;
  fetch: (id: string) => Promise<Record<string, unknown>>;
  remove: (ids: readonly string[]) => Promise<number>;
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

/** Who runs the tool, for the environments' audit trails. */
export type ToolCaller = { db: Database; actorId: string; email: string; ip: string | null };

/** The environments this deployment knows, names only, in the configured order (decision 0027). */
export function environmentNames(env: Env): Array<{ name: CaseEnvironmentName; current: boolean }> {
  const names = new Set<CaseEnvironmentName>(Object.keys(env.CASE_ENVIRONMENTS) as CaseEnvironmentName[]);
  if (env.CASE_ENVIRONMENT_NAME) names.add(env.CASE_ENVIRONMENT_NAME);
  return [...names].sort().map((name) => ({ name, current: name === env.CASE_ENVIRONMENT_NAME }));
}

/** The environment of that name, or null when this deployment does not know it. */
export function openEnvironment(env: Env, name: CaseEnvironmentName, caller: ToolCaller): CaseEnvironment | null {
  if (name === env.CASE_ENVIRONMENT_NAME) return localEnvironment(name, caller, env.CASE_ENVIRONMENT_NAME);
  const peer = env.CASE_ENVIRONMENTS[name];
  if (!peer) return null;
  return remoteEnvironment(name, peer, caller, env.CASE_ENVIRONMENT_NAME ?? null);
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
  };
}

function remoteEnvironment(
  name: CaseEnvironmentName,
  peer: { url: string; accessCode: string },
  caller: ToolCaller,
  self: CaseEnvironmentName | null,
): CaseEnvironment {
  const base = peer.url.replace(/\/+$/, '');
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          [CASE_PEER_CODE_HEADER]: peer.accessCode,
          [CASE_PEER_REQUESTED_BY_HEADER]: self ? `${caller.email} (${self})` : caller.email,
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
      text = await readBounded(response);
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
  };
}

/** The answer's text, or null past the bound (a peer cannot make this process hold an unbounded body). */
async function readBounded(response: Response): Promise<string | null> {
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > PEER_ANSWER_MAX_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
