import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CASE_PEER_CODE_HEADER,
  CASE_PEER_REQUESTED_BY_HEADER,
  CASE_MEDIA_MAX_BYTES,
  CaseCopyBodySchema,
  CaseDiffBodySchema,
  CaseToolSearchQuerySchema,
  FoundCasesSchema,
  FoundOrganisationsSchema,
  MediaDigestSchema,
  PeerDumpBodySchema,
  PeerDumpResultSchema,
  PeerRemoveBodySchema,
  PeerRemoveResultSchema,
  PeerRestoreBodySchema,
  PeerMediaDigestsSchema,
  PeerMediaIdsBodySchema,
  PeerMediaSchema,
  PeerMediaStoreResultSchema,
  PeerRestoreResultSchema,
  PeerSearchQuerySchema,
  CASE_TOOL_SEARCH_LIMIT,
} from '@patientsim/domain/cases/case-copy.schemas';
import { CASE_DOCUMENT_MAX_CHARS } from '@patientsim/domain/cases/case.schemas';
import { IdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { AppError } from '../../lib/errors.js';
import { isSameSecret } from '../../lib/secrets.js';
import { currentUser } from '../../lib/access.js';
import * as cases from '../cases/cases.service.js';
import { environmentStatuses, type ToolCaller } from './case-environments.js';
import { diffCases, prepareCopy, searchCases, searchOrganisations } from './case-copy.service.js';
import { peerMediaDigests, peerReadMedia, peerRemoveMedia, peerStoreMedia } from './peer-media.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404, 413, 502);

const PeerHeadersSchema = z.object({
  [CASE_PEER_CODE_HEADER]: z.string().max(512).optional(),
  [CASE_PEER_REQUESTED_BY_HEADER]: z.string().max(400).optional(),
});

/** Bodies of the peer endpoints: one case document at most, or a list of ids. */
const RESTORE_BODY_LIMIT = CASE_DOCUMENT_MAX_CHARS * 4 + 16 * 1024;
const IDS_BODY_LIMIT = 64 * 1024;
/** One media file in base64 and its envelope. */
const MEDIA_BODY_LIMIT = Math.ceil(CASE_MEDIA_MAX_BYTES / 3) * 4 + 16 * 1024;

/**
 * The case endpoints this deployment offers its peers' Cases tools (decision 0027), authenticated
 * by this deployment's CASE_ACCESS_CODE in `x-case-peer-code`. Without an access code configured
 * they do not exist (404); a missing or wrong code is 403.
 */
export const casePeerRoutes: FastifyPluginAsyncZod = async (app) => {
  const peerOnly = async (request: FastifyRequest) => {
    if (!app.env.CASE_ACCESS_CODE) throw new AppError('NOT_FOUND');
    if (!isSameSecret(app.env.CASE_ACCESS_CODE, request.headers[CASE_PEER_CODE_HEADER])) {
      request.log.warn({ ip: request.ip, url: request.url }, 'case peer call refused: access code missing or wrong');
      throw new AppError('CASE_ACCESS_CODE_INVALID');
    }
  };
  const callerOf = (request: FastifyRequest): cases.PeerCaller => {
    const requestedBy = request.headers[CASE_PEER_REQUESTED_BY_HEADER];
    return { db: app.db, ip: request.ip, requestedBy: typeof requestedBy === 'string' ? requestedBy : null, from: 'peer' };
  };
  const schema = { tags: ['cases'], hide: true, headers: PeerHeadersSchema } as const;

  app.post(
    '/api/cases/peer/dump',
    {
      onRequest: peerOnly,
      bodyLimit: IDS_BODY_LIMIT,
      schema: { ...schema, body: PeerDumpBodySchema, response: { 200: PeerDumpResultSchema, ...errors } },
    },
    async (request) => ({ cases: await cases.peerDumpCases(callerOf(request), request.body.ids) }),
  );
  app.post(
    '/api/cases/peer/restore',
    {
      onRequest: peerOnly,
      bodyLimit: RESTORE_BODY_LIMIT,
      schema: { ...schema, body: PeerRestoreBodySchema, response: { 200: PeerRestoreResultSchema, ...errors } },
    },
    async (request) => ({ id: await cases.peerRestoreCase(callerOf(request), request.body.dump, request.body.ownerOrg) }),
  );
  app.post(
    '/api/cases/peer/remove',
    {
      onRequest: peerOnly,
      bodyLimit: IDS_BODY_LIMIT,
      schema: { ...schema, body: PeerRemoveBodySchema, response: { 200: PeerRemoveResultSchema, ...errors } },
    },
    async (request) => ({ removed: await cases.peerRemoveCases(callerOf(request), request.body.ids) }),
  );
  app.get(
    '/api/cases/peer/:id',
    {
      onRequest: peerOnly,
      schema: { ...schema, params: IdParamsSchema, response: { 200: z.record(z.string(), z.unknown()), ...errors } },
    },
    async (request) => cases.peerCaseDocument(callerOf(request), request.params.id),
  );
  app.get(
    '/api/cases/peer/search/cases',
    {
      onRequest: peerOnly,
      schema: { ...schema, querystring: PeerSearchQuerySchema, response: { 200: FoundCasesSchema, ...errors } },
    },
    async (request) => ({
      cases: await cases.peerSearchCases(callerOf(request), request.query.q, CASE_TOOL_SEARCH_LIMIT),
    }),
  );
  app.get(
    '/api/cases/peer/search/organisations',
    {
      onRequest: peerOnly,
      schema: { ...schema, querystring: PeerSearchQuerySchema, response: { 200: FoundOrganisationsSchema, ...errors } },
    },
    async (request) => ({
      organisations: await cases.peerSearchOrganisations(callerOf(request), request.query.q, CASE_TOOL_SEARCH_LIMIT),
    }),
  );

  // The media files of copied cases (decision 0041).
  app.get(
    '/api/cases/peer/media/:id',
    {
      onRequest: peerOnly,
      schema: { ...schema, params: IdParamsSchema, response: { 200: PeerMediaSchema, ...errors } },
    },
    async (request) => peerReadMedia(callerOf(request), request.params.id),
  );
  app.post(
    '/api/cases/peer/media',
    {
      onRequest: peerOnly,
      bodyLimit: MEDIA_BODY_LIMIT,
      schema: { ...schema, body: PeerMediaSchema, response: { 200: PeerMediaStoreResultSchema, ...errors } },
    },
    async (request) => ({ created: await peerStoreMedia(callerOf(request), request.body) }),
  );
  app.post(
    '/api/cases/peer/media/digests',
    {
      onRequest: peerOnly,
      bodyLimit: IDS_BODY_LIMIT,
      schema: { ...schema, body: PeerMediaIdsBodySchema, response: { 200: PeerMediaDigestsSchema, ...errors } },
    },
    async (request) => ({ media: await peerMediaDigests(callerOf(request), request.body.ids) }),
  );
  app.post(
    '/api/cases/peer/media/remove',
    {
      onRequest: peerOnly,
      bodyLimit: IDS_BODY_LIMIT,
      schema: { ...schema, body: PeerMediaIdsBodySchema, response: { 200: PeerRemoveResultSchema, ...errors } },
    },
    async (request) => ({ removed: await peerRemoveMedia(callerOf(request), request.body.ids) }),
  );
};

/**
 * The Cases tool's routes for the super admin's browser (spec sections 2 and 4): the environments
 * by name, copy (streamed progress, application/x-ndjson) and diff. A view never reaches them: its
 * person is never a super admin (the bearer check), and its POSTs change something.
 */
export const caseToolRoutes: FastifyPluginAsyncZod = async (app) => {
  const mayCopy = app.requirePermission('cases:copy');
  const callerOf = (request: FastifyRequest): ToolCaller => {
    const actor = currentUser(request);
    return { db: app.db, actorId: actor.id, email: actor.email, ip: request.ip };
  };

  app.get(
    '/api/cases/tool/environments',
    {
      preHandler: mayCopy,
      schema: {
        tags: ['cases'],
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            environments: z.array(z.object({ name: z.string(), current: z.boolean(), configured: z.boolean() })),
          }),
          ...errors,
        },
      },
    },
    async () => ({ environments: environmentStatuses(app.env) }),
  );

  app.get(
    '/api/cases/tool/cases',
    {
      preHandler: mayCopy,
      schema: {
        tags: ['cases'],
        security: [{ bearer: [] }],
        querystring: CaseToolSearchQuerySchema,
        response: { 200: FoundCasesSchema, ...errors },
      },
    },
    async (request) => ({ cases: await searchCases(app.env, callerOf(request), request.query) }),
  );

  app.get(
    '/api/cases/tool/organisations',
    {
      preHandler: mayCopy,
      schema: {
        tags: ['cases'],
        security: [{ bearer: [] }],
        querystring: CaseToolSearchQuerySchema,
        response: { 200: FoundOrganisationsSchema, ...errors },
      },
    },
    async (request) => ({ organisations: await searchOrganisations(app.env, callerOf(request), request.query) }),
  );

  app.post(
    '/api/cases/tool/diff',
    {
      preHandler: mayCopy,
      bodyLimit: IDS_BODY_LIMIT,
      schema: {
        tags: ['cases'],
        security: [{ bearer: [] }],
        body: CaseDiffBodySchema,
        response: {
          200: z.object({
            same: z.boolean(),
            message: z.string(),
            a: z.record(z.string(), z.unknown()),
            b: z.record(z.string(), z.unknown()),
            mediaA: z.record(z.string(), MediaDigestSchema),
            mediaB: z.record(z.string(), MediaDigestSchema),
          }),
          ...errors,
        },
      },
    },
    async (request) => diffCases(app.env, callerOf(request), request.body),
  );

  app.post(
    '/api/cases/tool/copy',
    {
      preHandler: mayCopy,
      bodyLimit: IDS_BODY_LIMIT,
      schema: {
        tags: ['cases'],
        security: [{ bearer: [] }],
        body: CaseCopyBodySchema,
        // 200 is a stream of JSON lines (CaseCopyEvent), not serialized.
        response: { 200: z.unknown(), ...errors },
      },
    },
    async (request, reply) => {
      const run = prepareCopy(app.env, callerOf(request), request.body);
      const stream = new PassThrough();
      reply.header('content-type', 'application/x-ndjson; charset=utf-8');
      reply.header('cache-control', 'no-store');
      reply.header('x-accel-buffering', 'no');
      // The copy finishes (and cleans up after itself) even when the browser goes away.
      void run((event) => {
        if (!stream.destroyed) stream.write(`${JSON.stringify(event)}\n`);
      })
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'case copy failed');
          if (!stream.destroyed) {
            stream.write(`${JSON.stringify({ type: 'error', statusCode: 500, code: 'INTERNAL', message: 'Unknown error' })}\n`);
          }
        })
        .finally(() => stream.end());
      return reply.send(stream);
    },
  );
};
